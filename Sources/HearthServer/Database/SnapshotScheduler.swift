public import HearthCore
import Synchronization

/// Decides when the read view is worth snapshotting and hands the captured roots to the snapshot writer.
///
/// A snapshot is due after `everyRecords` log records, or when the runtime's timer finds any record since the last
/// one. Capturing is O(1) (persistent roots); writing happens off the commit thread. At most one is in flight.
final class SnapshotScheduler: Sendable {
    private struct State {
        var recordsSinceSnapshot = 0
        var inFlight = false
        var stopped = false
    }

    private let everyRecords: Int
    private let state = Mutex(State())
    let requests: AsyncStream<(UInt64, [String: Node])>
    private let continuation: AsyncStream<(UInt64, [String: Node])>.Continuation

    init(everyRecords: Int) {
        self.everyRecords = everyRecords
        (self.requests, self.continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    func recovered(lsn: UInt64, recordsSinceSnapshot: Int) {
        self.state.withLock { $0.recordsSinceSnapshot = recordsSinceSnapshot }
    }

    func recordApplied(lsn: UInt64, roots: [String: Node]) {
        let due = self.state.withLock { state -> Bool in
            state.recordsSinceSnapshot += 1
            guard !state.stopped, !state.inFlight, state.recordsSinceSnapshot >= self.everyRecords else { return false }
            state.inFlight = true
            state.recordsSinceSnapshot = 0
            return true
        }
        if due { self.continuation.yield((lsn, roots)) }
    }

    /// Asks for a snapshot of `roots` (as of `lsn`) if any record arrived since the last one: the time-based trigger.
    func requestIfChanged(lsn: UInt64, roots: [String: Node]) {
        let due = self.state.withLock { state -> Bool in
            guard !state.stopped, !state.inFlight, state.recordsSinceSnapshot > 0 else { return false }
            state.inFlight = true
            state.recordsSinceSnapshot = 0
            return true
        }
        if due { self.continuation.yield((lsn, roots)) }
    }

    func finished() {
        self.state.withLock { $0.inFlight = false }
    }

    func stop() {
        self.state.withLock { $0.stopped = true }
        self.continuation.finish()
    }
}
