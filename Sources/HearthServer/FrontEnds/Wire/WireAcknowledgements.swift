import HearthCore
import HearthSystem

/// Lets one session pipeline its writes: each put or merge is ordered (applied to its shard, placed in the log) as it
/// arrives, while its acknowledgement waits here, in request order, until the write is durable.
///
/// Responses still leave in the order requests arrived: before handling any request that is not a write, the session
/// calls `barrier()`, which returns once every earlier write has been acknowledged. Listener pushes for a write are
/// queued on the connection before its acknowledgement (the log applies and fans out before waiters resume).
final class WireAcknowledgements: Sendable {
    /// One write waiting for its acknowledgement.
    struct Entry: Sendable {
        /// What submitting a write yields: the pending write and the path named in a `datastale` message.
        typealias Submission = (write: PendingWrite, path: Path)

        var id: Int64
        var action: String
        var started: ContinuousClock.Instant
        var write: PendingWrite
        var path: Path
        /// A compare-and-set's turn at its location (`ConditionalWriteGate`), ended with its answer.
        var turn: ConditionalWriteTurn? = nil
    }

    private struct State {
        var outstanding = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let entries: AsyncStream<Entry>
    private let continuation: AsyncStream<Entry>.Continuation
    private let state = Lock(State())

    init() {
        (self.entries, self.continuation) = AsyncStream.makeStream()
    }

    /// Queues the acknowledgement of a submitted write.
    func append(_ entry: Entry) {
        self.state.withLock { $0.outstanding += 1 }
        self.continuation.yield(entry)
    }

    /// No more writes will be appended; `drain` returns after the last one.
    func finish() {
        self.continuation.finish()
    }

    /// Returns once every appended write has been acknowledged.
    func barrier() async {
        await withCheckedContinuation { continuation in
            let isIdle = self.state.withLock { state -> Bool in
                if state.outstanding > 0 { state.waiters.append(continuation) }
                return state.outstanding == 0
            }
            if isIdle { continuation.resume() }
        }
    }

    /// Waits for each write in order and sends its response through `send`.
    func drain(send: (Entry, Result<WriteOutcome, any Error>) -> Void) async {
        for await entry in self.entries {
            let result: Result<WriteOutcome, any Error>
            do {
                result = .success(try await entry.write.outcome())
            } catch {
                result = .failure(error)
            }
            send(entry, result)
            let waiters = self.state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.outstanding -= 1
                guard state.outstanding == 0 else { return [] }
                let waiters = state.waiters
                state.waiters = []
                return waiters
            }
            for waiter in waiters { waiter.resume() }
        }
    }
}
