public import HearthSystem

/// A `NodeClock` whose time moves only when a simulation moves it: sleeping tasks wait until `advance(to:)` passes
/// their deadline, and then wake in deadline order (ties in the order they went to sleep), so a run replays exactly.
///
/// Time is kept as the duration since the clock was made; `now` maps it onto `ContinuousClock` instants so the
/// code under test keeps its deadline types. Give each simulated node its own clock to model clock jumps (a paused
/// machine whose timers all fire late at once).
public final class ManualNodeClock: NodeClock {
    private struct Sleeper {
        var deadline: Duration
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var elapsed: Duration = .zero
        var sleepers: [UInt64: Sleeper] = [:]
        var nextID: UInt64 = 0
    }

    private let base = ContinuousClock.now
    private let state = Lock(State())

    public init() {}

    public var now: ContinuousClock.Instant { self.base + self.elapsed }

    /// How far the clock has been moved.
    public var elapsed: Duration { self.state.withLock { $0.elapsed } }

    /// The earliest deadline of a sleeping task, as a time since the clock was made.
    public var nextDeadline: Duration? { self.state.withLock { $0.sleepers.values.map(\.deadline).min() } }

    /// How many tasks are asleep on this clock.
    public var sleeping: Int { self.state.withLock { $0.sleepers.count } }

    public func sleep(for duration: Duration) async throws {
        let id = self.state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resume: Result<Void, any Error>? = self.state.withLock { state in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if duration <= .zero { return .success(()) }
                    state.sleepers[id] = Sleeper(deadline: state.elapsed + duration, continuation: continuation)
                    return nil
                }
                if let resume { continuation.resume(with: resume) }
            }
        } onCancel: {
            let sleeper = self.state.withLock { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock to `elapsed` (never back) and wakes every task whose deadline it reached.
    /// - Returns: how many tasks woke.
    @discardableResult
    public func advance(to elapsed: Duration) -> Int {
        let due = self.state.withLock { state -> [Sleeper] in
            state.elapsed = max(state.elapsed, elapsed)
            let ids = state.sleepers.filter { $0.value.deadline <= state.elapsed }
                .sorted { ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key) }.map(\.key)
            return ids.compactMap { state.sleepers.removeValue(forKey: $0) }
        }
        for sleeper in due { sleeper.continuation.resume() }
        return due.count
    }

    /// Moves the clock forward by `duration`; see `advance(to:)`.
    @discardableResult
    public func advance(by duration: Duration) -> Int {
        self.advance(to: self.elapsed + duration)
    }
}
