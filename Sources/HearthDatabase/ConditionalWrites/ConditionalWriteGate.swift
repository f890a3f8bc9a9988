import HearthSystem

/// The thin async shell around `ConditionalWriteScheduler`: compare-and-sets from REST and realtime clients wait here
/// for their turn (one gate per node; on a cluster, callers of other nodes too, for the locations whose shard this
/// node leads), and the scheduler's timer runs as a task.
package final class ConditionalWriteGate: ConditionalWriteTurns {
    private struct State {
        var scheduler: ConditionalWriteScheduler
        var waiting: [UInt64: CheckedContinuation<Void, Never>] = [:]
        /// When the timer task now sleeping wakes, if one is.
        var wake: ContinuousClock.Instant?
        /// Shards being handed to another leader (`pause(shard:)`).
        var paused: Set<Int> = []
    }

    private let state: Lock<State>
    /// The bounds of waiting and remembering.
    package let settings: ConditionalWriteScheduler.Settings
    /// The shard of a location, on a cluster member (whose leaders pause a shard's locations while they hand it
    /// over); nil on a single node.
    private let shardOf: (@Sendable (ConditionalWriteScheduler.Target) -> Int?)?

    package init(
        settings: ConditionalWriteScheduler.Settings = .init(),
        shardOf: (@Sendable (ConditionalWriteScheduler.Target) -> Int?)? = nil
    ) {
        self.settings = settings
        self.shardOf = shardOf
        self.state = Lock(State(scheduler: ConditionalWriteScheduler(settings: settings)))
    }

    /// Pauses `shard`'s locations while this node hands the shard to another leader: the compare-and-sets running
    /// there finish, new ones wait (at most `maximumHold`) until `resume(shard:)`.
    package func pause(shard: Int) {
        guard let shardOf = self.shardOf else { return }
        self.state.withLock { state in
            state.paused.insert(shard)
            state.scheduler.pause { shardOf($0) == shard }
        }
    }

    /// Ends `shard`'s pause: its held compare-and-sets take their turns again.
    package func resume(shard: Int) {
        guard let shardOf = self.shardOf else { return }
        self.state.withLock { state in
            state.paused.remove(shard)
            for id in state.scheduler.resume(where: { shardOf($0) == shard }, now: .now) {
                state.waiting.removeValue(forKey: id)?.resume()
            }
        }
        self.scheduleWake()
    }

    /// Another node now leads `shard`: the compare-and-sets held at its locations here go at once, and its pause ends
    /// (`ConditionalWriteScheduler.moved(where:)`).
    package func moved(shard: Int) {
        guard let shardOf = self.shardOf else { return }
        self.state.withLock { state in
            state.paused.remove(shard)
            for id in state.scheduler.moved(where: { shardOf($0) == shard }) {
                state.waiting.removeValue(forKey: id)?.resume()
            }
        }
        self.scheduleWake()
    }

    /// Compare-and-sets running at `shard`'s locations (a handover waits for none to be left).
    package func runningCount(shard: Int) -> Int {
        self.state.withLock { $0.scheduler.runningCount(group: shard) }
    }

    /// Waits until the compare-and-set may write; returns its turn, `.local` with the request's id.
    package func admit(connection: UInt64, target: ConditionalWriteScheduler.Target, etag: String) async
        -> ConditionalWriteTurn
    {
        .local(await self.admitRequest(connection: connection, target: target, etag: etag))
    }

    /// Waits until the compare-and-set may write; returns the id to pass to `answered`.
    package func admitRequest(connection: UInt64, target: ConditionalWriteScheduler.Target, etag: String) async
        -> UInt64
    {
        var id: UInt64 = 0
        let shard = self.shardOf?(target)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            self.state.withLock { state in
                let admission = state.scheduler.arrive(
                    connection: connection, target: target, etag: etag, now: .now,
                    paused: shard.map { state.paused.contains($0) } ?? false, group: shard)
                switch admission {
                case .run(let admitted):
                    id = admitted
                    continuation.resume()
                case .hold(let admitted):
                    id = admitted
                    state.waiting[admitted] = continuation
                }
            }
            self.scheduleWake()
        }
        return id
    }

    /// Reports how the request that held `turn` ended, letting the next in line write; other gates' turns are not
    /// this one's.
    package func answered(_ turn: ConditionalWriteTurn, _ answer: ConditionalWriteScheduler.Answer) {
        guard case .local(let id) = turn else { return }
        self.answered(request: id, answer)
    }

    /// Reports how request `id` ended, letting the next in line write.
    package func answered(request id: UInt64, _ answer: ConditionalWriteScheduler.Answer) {
        self.resume { $0.answered(id, answer, now: .now) }
    }

    /// Notes an ETag read, the first step of a new transaction.
    package func read(connection: UInt64, target: ConditionalWriteScheduler.Target) {
        self.state.withLock { $0.scheduler.read(connection: connection, target: target, now: .now) }
    }

    /// Forgets a closed connection.
    package func connectionClosed(_ connection: UInt64) {
        self.resume { $0.connectionClosed(connection, now: .now) }
    }

    private func tick() {
        self.state.withLock { state in
            if let wake = state.wake, wake <= .now { state.wake = nil }
        }
        self.resume { $0.tick(now: .now) }
    }

    /// Runs one scheduler event and lets the requests it releases go on.
    private func resume(_ event: (inout ConditionalWriteScheduler) -> [UInt64]) {
        self.state.withLock { state in
            for id in event(&state.scheduler) {
                state.waiting.removeValue(forKey: id)?.resume()
            }
        }
        self.scheduleWake()
    }

    /// Makes sure a timer task wakes by the scheduler's next deadline.
    private func scheduleWake() {
        let deadline = self.state.withLock { state -> ContinuousClock.Instant? in
            guard let next = state.scheduler.nextDeadline(after: .now) else { return nil }
            if let wake = state.wake, wake <= next { return nil }
            state.wake = next
            return next
        }
        guard let deadline else { return }
        Task {
            try? await Task.sleep(until: deadline, clock: .continuous)
            self.tick()
        }
    }
}
