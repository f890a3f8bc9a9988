import HearthSystem

/// Decides when the read view is worth snapshotting and hands a consistent capture to the snapshot writer.
///
/// A snapshot is due after `everyRecords` log records, or when the runtime's timer finds any record since the last
/// one; it is taken at the first moment the view is a consistent cut (no multi-shard transaction half shown).
/// Capturing takes the persistent roots (O(1)) and records the named writes that wait (`CommitFeed.sessions()`, O(waiting
/// records)), so the view captures only when a snapshot would be started; writing happens off the commit thread. At
/// most one is in flight.
///
/// A due snapshot also waits, for up to `maximumDeferrals` batches, for a cut with no transaction prepared: a
/// prepared part is written into the snapshot whole, and one cut in the middle of a 1 GB import would encode the
/// import's parts next to it, only to be superseded a moment later when the import finishes.
final class SnapshotScheduler: Sendable {
    private struct State {
        var recordsSinceSnapshot = 0
        var inFlight = false
        var stopped = false
        /// Batches since the snapshot became due whose cut held prepared transactions.
        var deferrals = 0
    }

    /// How many batches a due snapshot waits for a cut without prepared transactions before taking one with them
    /// (transactions finish within a few group commits, so under steady load this rarely runs out).
    static let maximumDeferrals = 64

    private let everyRecords: Int
    private let state = Lock(State())
    let requests: AsyncStream<ViewSnapshot>
    private let continuation: AsyncStream<ViewSnapshot>.Continuation

    init(everyRecords: Int) {
        self.everyRecords = everyRecords
        (self.requests, self.continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    func recovered(recordsSinceSnapshot: Int) {
        self.state.withLock { $0.recordsSinceSnapshot = recordsSinceSnapshot }
    }

    /// Whether `count` more applied records make a snapshot due (none in flight, enough records since the last),
    /// so the view should capture the batch's end for `recordsApplied` (capturing records the named writes that
    /// wait, `CommitFeed.sessions()`). Counts nothing.
    func wantsCapture(adding count: Int) -> Bool {
        self.state.withLock { state in
            !state.stopped && !state.inFlight && state.recordsSinceSnapshot + count >= self.everyRecords
        }
    }

    /// Counts applied records; starts a snapshot of `capture` when one is due and the view offered a capture.
    func recordsApplied(_ count: Int, capture: ViewSnapshot?) {
        let due = self.state.withLock { state -> Bool in
            state.recordsSinceSnapshot += count
            guard let capture, !state.stopped, !state.inFlight, state.recordsSinceSnapshot >= self.everyRecords
            else { return false }
            if capture.intents.contains(where: { !$0.isEmpty }), state.deferrals < Self.maximumDeferrals {
                state.deferrals += 1
                return false
            }
            state.inFlight = true
            state.recordsSinceSnapshot = 0
            state.deferrals = 0
            return true
        }
        if due, let capture { self.continuation.yield(capture) }
    }

    /// Whether the time-based trigger would start a snapshot now (a record arrived since the last one, none is in
    /// flight), so the view should capture for `requestIfChanged`.
    var wantsTimedCapture: Bool {
        self.state.withLock { !$0.stopped && !$0.inFlight && $0.recordsSinceSnapshot > 0 }
    }

    /// Snapshots `capture` if any record arrived since the last snapshot: the time-based trigger.
    func requestIfChanged(_ capture: ViewSnapshot?) {
        let due = self.state.withLock { state -> Bool in
            guard capture != nil, !state.stopped, !state.inFlight, state.recordsSinceSnapshot > 0 else { return false }
            state.inFlight = true
            state.recordsSinceSnapshot = 0
            state.deferrals = 0
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
