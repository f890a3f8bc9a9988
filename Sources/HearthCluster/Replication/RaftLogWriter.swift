import HearthStorage
import HearthSystem

/// Appends a node's Raft records (every group's) to its write-ahead log and notes each in a `RaftLogRetention`,
/// in log order, so compaction knows which records each group still needs.
final class RaftLogWriter: Sendable {
    let wal: WriteAheadLog
    /// Held while records are enqueued, so they are noted in the order the log numbers them.
    private let retention: Lock<RaftLogRetention>

    /// - Parameter retention: what recovery found the log's records to be (`ReplicationService.recover`).
    init(wal: WriteAheadLog, retention: RaftLogRetention) {
        self.wal = wal
        self.retention = Lock(retention)
    }

    /// Appends `records` in order; returns the last one's sequence number (0 for none). Never waits for the disk.
    func enqueue(_ records: [RaftLogRecord]) -> UInt64 {
        self.retention.withLock { retention in
            var last: UInt64 = 0
            for record in records {
                last = self.wal.enqueue(record.encoded())
                retention.recorded(record, at: last)
            }
            return last
        }
    }

    /// Appends `records` and returns once they are durable.
    func persist(_ records: [RaftLogRecord]) async throws {
        let last = self.enqueue(records)
        guard last > 0 else { return }
        try await self.wal.waitUntilDurable(last)
    }

    /// Reads the retention as it stands.
    func withRetention<T>(_ body: (RaftLogRetention) -> T) -> T {
        self.retention.withLock { body($0) }
    }
}
