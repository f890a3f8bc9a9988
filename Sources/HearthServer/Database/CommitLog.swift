import HearthCore
import HearthStorage
import HearthSystem
import Synchronization

/// The node's write-ahead log as the write path sees it: records in, durable and applied records out.
///
/// Shards enqueue decoded `CommitRecord`s; the log encodes them, keeps the decoded form until the record is durable
/// (so the read view never parses what a shard just built), and applies each durable record to the view in log
/// order before any writer waiting on it resumes.
final class CommitLog: Sendable {
    private let wal: WriteAheadLog
    private let pending: PendingRecords
    private let failures: AsyncStream<StorageError>.Continuation
    /// Yields once when the log fails: the node must stop, since nothing more can be made durable.
    let failure: AsyncStream<StorageError>

    init(wal: WriteAheadLog, pending: PendingRecords) {
        self.wal = wal
        self.pending = pending
        (self.failure, self.failures) = AsyncStream.makeStream(bufferingPolicy: .bufferingOldest(1))
    }

    /// Builds the log and wires its durable-records callback to the view.
    static func open(directory: String, configuration: WALConfiguration, view: DatabaseView, log: Log) throws
        -> CommitLog
    {
        let pending = PendingRecords()
        let wal = try WriteAheadLog(directory: directory, configuration: configuration) { records in
            for record in records {
                let decoded: CommitRecord
                if let known = pending.take(record.lsn) {
                    decoded = known
                } else {
                    do {
                        decoded = try CommitRecord(decoding: record.payload)
                    } catch {
                        log.critical("wal.undecodable", ["lsn": "\(record.lsn)", "error": "\(error)"])
                        continue
                    }
                }
                view.apply(decoded, lsn: record.lsn)
            }
        }
        return CommitLog(wal: wal, pending: pending)
    }

    var lastRecoveredLSN: UInt64 { self.wal.lastLSN }

    /// Replays the records after `lsn` into `body` (recovery, before `start`).
    func replay(after lsn: UInt64, _ body: (UInt64, CommitRecord) throws -> Void) throws {
        try self.wal.replay(after: lsn) { record in
            try body(record.lsn, try CommitRecord(decoding: record.payload))
        }
    }

    func start() { self.wal.start() }

    /// Appends a record and returns its log position. Call it in the same actor turn that applied the record.
    func enqueue(_ record: CommitRecord) -> UInt64 {
        let bytes = record.encoded()
        return self.pending.insert(record) { self.wal.enqueue(bytes) }
    }

    /// The position of the newest enqueued record (a barrier for spine transactions).
    var lastEnqueuedLSN: UInt64 { self.pending.lastEnqueued }

    /// Waits until `lsn` is durable and applied. An I/O failure is reported on `failure` (once) as well as thrown.
    func waitUntilDurable(_ lsn: UInt64) async throws {
        do {
            try await self.wal.waitUntilDurable(lsn)
        } catch {
            if error.code == .io { self.failures.yield(error) }
            throw error
        }
    }

    func truncate(through lsn: UInt64) { self.wal.truncate(through: lsn) }

    func close() async { await self.wal.close() }

    var statistics: WALStatistics { self.wal.statistics }
}

/// Decoded records waiting to become durable, keyed by log position.
final class PendingRecords: Sendable {
    private struct State {
        var records: [UInt64: CommitRecord] = [:]
        var lastEnqueued: UInt64 = 0
    }
    private let state = Mutex(State())

    /// Runs `enqueue` and files the record under the position it returns, atomically with respect to `take`, so
    /// the log's callback can never look for a record before it is filed.
    func insert(_ record: CommitRecord, enqueue: () -> UInt64) -> UInt64 {
        self.state.withLock { state in
            let lsn = enqueue()
            state.records[lsn] = record
            state.lastEnqueued = max(state.lastEnqueued, lsn)
            return lsn
        }
    }

    func take(_ lsn: UInt64) -> CommitRecord? {
        self.state.withLock { $0.records.removeValue(forKey: lsn) }
    }

    var lastEnqueued: UInt64 { self.state.withLock { $0.lastEnqueued } }
}
