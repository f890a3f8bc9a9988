import Synchronization

/// Decides when the read view is worth snapshotting and hands a consistent capture to the snapshot writer.
///
/// A snapshot is due after `everyRecords` log records, or when the runtime's timer finds any record since the last
/// one; it is taken at the first moment the view is a consistent cut (no multi-shard transaction half shown).
/// Capturing is O(1) (persistent roots); writing happens off the commit thread. At most one is in flight.
final class SnapshotScheduler: Sendable {
    private struct State {
        var recordsSinceSnapshot = 0
        var inFlight = false
        var stopped = false
    }

    private let everyRecords: Int
    private let state = Mutex(State())
    let requests: AsyncStream<ViewSnapshot>
    private let continuation: AsyncStream<ViewSnapshot>.Continuation

    init(everyRecords: Int) {
        self.everyRecords = everyRecords
        (self.requests, self.continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    func recovered(recordsSinceSnapshot: Int) {
        self.state.withLock { $0.recordsSinceSnapshot = recordsSinceSnapshot }
    }

    /// Counts applied records; starts a snapshot of `capture` when one is due and the view offered a capture.
    func recordsApplied(_ count: Int, capture: ViewSnapshot?) {
        let due = self.state.withLock { state -> Bool in
            state.recordsSinceSnapshot += count
            guard capture != nil, !state.stopped, !state.inFlight, state.recordsSinceSnapshot >= self.everyRecords
            else { return false }
            state.inFlight = true
            state.recordsSinceSnapshot = 0
            return true
        }
        if due, let capture { self.continuation.yield(capture) }
    }

    /// Snapshots `capture` if any record arrived since the last snapshot: the time-based trigger.
    func requestIfChanged(_ capture: ViewSnapshot?) {
        let due = self.state.withLock { state -> Bool in
            guard capture != nil, !state.stopped, !state.inFlight, state.recordsSinceSnapshot > 0 else { return false }
            state.inFlight = true
            state.recordsSinceSnapshot = 0
            return true
        }
        if due, let capture { self.continuation.yield(capture) }
    }

    /// The snapshot in flight is written (or failed); if enough records arrived meanwhile, snapshots `capture` next,
    /// so a burst that ended while a snapshot was being written is not left for the timer.
    func finished(next capture: ViewSnapshot?) {
        self.state.withLock { $0.inFlight = false }
        self.recordsApplied(0, capture: capture)
    }

    func stop() {
        self.state.withLock { $0.stopped = true }
        self.continuation.finish()
    }
}
