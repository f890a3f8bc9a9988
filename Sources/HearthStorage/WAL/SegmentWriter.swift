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
    /// The frames of the batch being written: `WriteAheadLog.State.nextStep` swaps the queue's buffer in, and this
    /// one (emptied, its capacity kept) becomes the queue's, so neither side allocates per batch.
    var frames: [UInt8] = []
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

    /// Seals and writes `frames`, the records `lsns` (in order), rolling to new segments past `segmentBytes`, then
    /// syncs per the fsync mode, and empties `frames` (keeping its capacity for reuse, unless a burst made it larger
    /// than a few full batches). One `write` per segment touched (more only on short writes). O(total payload).
    func append(_ lsns: ClosedRange<UInt64>) throws(StorageError) {
        // One pass seals every frame in place and notes where the segment fills up: the frames from there on go to
        // a new segment, which starts with that frame's LSN. The walk keeps its figures in locals.
        let segmentBytes = self.configuration.segmentBytes
        let firstLSN = lsns.lowerBound
        var size = self.size
        var rolls: [(offset: Int, lsn: UInt64)] = []
        self.frames.withUnsafeMutableBytes { frames in
            var offset = 0
            var lsn = firstLSN
            while offset < frames.count {
                if size >= segmentBytes {
                    rolls.append((offset, lsn))
                    size = 0
                }
                let end = WALFrame.seal(frames, at: offset)
                size += end - offset
                offset = end
                lsn += 1
            }
            precondition(
                lsn == lsns.upperBound &+ 1, "SegmentWriter: \(lsn - firstLSN) frames sealed for \(lsns.count)")
        }
        var start = 0
        for roll in rolls {
            try self.write(start..<roll.offset)
            try self.roll(firstLSN: roll.lsn)
            start = roll.offset
        }
        try self.write(start..<self.frames.count)
        self.size = size
        if self.configuration.fsync != .off {
            try self.synchronize(metadata: false)
        }
        self.statistics.batches += 1
        self.statistics.records += UInt64(lsns.count)
        let (kept, overflow) = max(self.configuration.batchMaximumBytes, 64 * 1024).multipliedReportingOverflow(by: 4)
        let isOversized = !overflow && self.frames.capacity > kept
        self.frames.removeAll(keepingCapacity: !isOversized)
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

    /// Writes `frames[range]` to the current segment.
    private func write(_ range: Range<Int>) throws(StorageError) {
        guard !range.isEmpty else { return }
        let result = self.frames.withUnsafeBytes { buffer in
            Result { () throws(StorageError) in
                try self.fileSystem.writeAll(self.handle, UnsafeRawBufferPointer(rebasing: buffer[range]))
            }
        }
        try result.get()
        self.statistics.bytes += UInt64(range.count)
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
