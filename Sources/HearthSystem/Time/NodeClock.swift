/// The monotonic time a node's timers sleep on and its deadlines are measured against.
///
/// Everything in the replicated write path that waits or times out (Raft's ticks, shard calls, commit waits, the
/// intent resolver) asks this clock instead of `ContinuousClock` directly, so a deterministic simulation can run a
/// whole cluster on one manual clock whose time moves only when the simulation moves it. Instants stay
/// `ContinuousClock.Instant`s, so deadlines keep their type in value state.
public protocol NodeClock: Sendable {
    /// The current instant.
    var now: ContinuousClock.Instant { get }
    /// Suspends the calling task for `duration`.
    /// - Throws: `CancellationError` when the task is cancelled before the time is up.
    func sleep(for duration: Duration) async throws
}

/// The real clock: `ContinuousClock`'s time and `Task.sleep`.
public struct SystemNodeClock: NodeClock {
    public init() {}

    public var now: ContinuousClock.Instant { ContinuousClock.now }

    public func sleep(for duration: Duration) async throws {
        try await Task.sleep(for: duration)
    }
}

extension NodeClock where Self == SystemNodeClock {
    /// The real clock.
    public static var system: SystemNodeClock { SystemNodeClock() }
}
