import HearthSystem

/// The writer thread's end of the log: appends framed batches to the current segment, rolls segments and fsyncs.
///
/// Confined to one thread at a time: `WriteAheadLog.init` builds it, then hands it to the writer thread, which is
/// its only user from then on. `@unchecked Sendable` only so that hand-over can cross the `Lock` that holds it.
final class SegmentWriter: @unchecked Sendable {
    private let fileSystem: any FileSystem
    private let directory: String
    private let configuration: WALConfiguration
    private var handle: FileHandle
    private var size: Int
    /// Bytes framed but not yet written; reused between batches to avoid reallocating.
    private var buffer: [UInt8] = []
    /// Segments created since the last `takeNewSegments()`.
    private var newSegments: [WALSegment] = []
    private(set) var statistics = WALStatistics()

    /// Opens `segment` (creating it, and syncing the directory, when it does not exist yet) for appending.
    init(
        segment: WALSegment,
        size: Int,
        isNew: Bool,
        directory: String,
        configuration: WALConfiguration,
        fileSystem: any FileSystem
    ) throws(StorageError) {
        self.fileSystem = fileSystem
        self.directory = directory
        self.configuration = configuration
        self.size = size
        self.handle = try fileSystem.open(segment.path, mode: isNew ? .createNew : .append)
        if isNew {
            try fileSystem.synchronizeDirectory(directory)
        }
    }

    /// Frames and writes `records` (in LSN order), rolling to new segments past `segmentBytes`, then syncs per
    /// the fsync mode. One `write` per segment touched (more only on short writes). O(total payload).
    func append(_ records: [WALRecord]) throws(StorageError) {
        self.buffer.removeAll(keepingCapacity: true)
        for record in records {
            if self.size >= self.configuration.segmentBytes {
                try self.flushBuffer()
                try self.roll(firstLSN: record.lsn)
            }
            WALFrame.encode(lsn: record.lsn, payload: record.payload, into: &self.buffer)
            self.size += WALFrame.size(payloadCount: record.payload.count)
        }
        try self.flushBuffer()
        if self.configuration.fsync != .off {
            try self.synchronize(metadata: false)
        }
        self.statistics.batches += 1
        self.statistics.records += UInt64(records.count)
    }

    /// The segments created by rolls since the last call.
    func takeNewSegments() -> [WALSegment] {
        defer { self.newSegments.removeAll() }
        return self.newSegments
    }

    /// Flushes everything to stable storage (whatever the fsync mode) and closes the segment.
    func close() throws(StorageError) {
        defer { try? self.fileSystem.close(self.handle) }
        try self.synchronize(metadata: true)
    }

    /// Releases the descriptor without syncing, after a failure.
    func abandon() {
        try? self.fileSystem.close(self.handle)
    }

    private func flushBuffer() throws(StorageError) {
        guard !self.buffer.isEmpty else { return }
        try self.fileSystem.writeAll(self.handle, self.buffer)
        self.statistics.bytes += UInt64(self.buffer.count)
        self.buffer.removeAll(keepingCapacity: true)
    }

    private func synchronize(metadata: Bool) throws(StorageError) {
        let start = MonotonicClock.now()
        try self.fileSystem.synchronize(self.handle, metadata: metadata)
        self.statistics.fsyncs += 1
        self.statistics.fsyncNanoseconds &+= MonotonicClock.now() &- start
    }

    /// Closes the full segment (synced unless fsync is off) and starts `wal-<firstLSN>.log`.
    private func roll(firstLSN: UInt64) throws(StorageError) {
        if self.configuration.fsync != .off {
            try self.synchronize(metadata: true)
        }
        let segment = WALSegment(firstLSN: firstLSN, directory: self.directory)
        let next = try self.fileSystem.open(segment.path, mode: .createNew)
        try? self.fileSystem.close(self.handle)
        self.handle = next
        self.size = 0
        if self.configuration.fsync != .off {
            try self.fileSystem.synchronizeDirectory(self.directory)
        }
        self.newSegments.append(segment)
    }
}
