import HearthSystem

/// The writer thread's end of the log: writes framed batches at the current segment's end, rolls segments and
/// fsyncs; between batches it writes zeros ahead of the end (`WALConfiguration.zeroAheadBytes`), so a batch lands in
/// blocks the file already has and its fdatasync flushes data only.
///
/// Confined to one thread at a time: `WriteAheadLog.init` builds it, then hands it to the writer thread, which is
/// its only user from then on. `@unchecked Sendable` only so that hand-over can cross the `Lock` that holds it.
final class SegmentWriter: @unchecked Sendable {
    private let fileSystem: any FileSystem
    private let directory: String
    private let configuration: WALConfiguration
    private var handle: FileHandle
    /// Where the next frame goes: the end of the segment's records.
    private var size: Int
    /// The file's length: the bytes from `size` up to here are zeros written ahead (or a zero tail recovery found).
    private var zeroedEnd: Int
    /// A buffer of zeros for `zeroAhead`, allocated on its first use.
    private var zeros: [UInt8] = []
    /// Set when writing zeros ahead failed (a disk too full for a chunk): the segment is written by appends until
    /// it rolls, and the log fails only when a batch itself cannot be written.
    private var isZeroingPaused = false
    /// The frames of the batch being written: `WriteAheadLog.State.nextStep` swaps the queue's buffer in, and this
    /// one (emptied, its capacity kept) becomes the queue's, so neither side allocates per batch.
    var frames: [UInt8] = []
    /// Segments created since the last `takeNewSegments()`.
    private var newSegments: [WALSegment] = []
    private(set) var statistics = WALStatistics()

    /// Opens `segment` (creating it, and syncing the directory, when it does not exist yet) for writing at `size`,
    /// its records' end; the file's `fileSize - size` bytes after them are a zero tail.
    init(
        segment: WALSegment,
        size: Int,
        fileSize: Int,
        isNew: Bool,
        directory: String,
        configuration: WALConfiguration,
        fileSystem: any FileSystem
    ) throws(StorageError) {
        self.fileSystem = fileSystem
        self.directory = directory
        self.configuration = configuration
        self.size = size
        self.zeroedEnd = max(size, fileSize)
        self.handle = try fileSystem.open(segment.path, mode: isNew ? .createNewPositioned : .positioned)
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

    /// Between batches: when fewer than half of `zeroAheadBytes` zeros are left after the records' end, writes
    /// `zeroAheadBytes` more (never past `segmentBytes`) and leaves them for the next batch's sync to flush, so no
    /// batch waits behind more than one chunk. Nothing with fsync `.off`. A failed write of zeros is cut off again
    /// and pauses zeroing until the next segment; only a failed cut throws. O(zeroAheadBytes).
    func zeroAhead() throws(StorageError) {
        let chunk = self.configuration.zeroAheadBytes
        guard self.configuration.fsync != .off, chunk > 0, !self.isZeroingPaused,
            self.zeroedEnd - self.size < chunk / 2
        else { return }
        let count = min(chunk, self.configuration.segmentBytes - self.zeroedEnd)
        guard count > 0 else { return }
        if self.zeros.count < count {
            self.zeros = [UInt8](repeating: 0, count: count)
        }
        let result = self.zeros.withUnsafeBytes { buffer in
            Result { () throws(StorageError) in
                try self.fileSystem.writeAll(
                    self.handle, UnsafeRawBufferPointer(rebasing: buffer[..<count]), at: self.zeroedEnd)
            }
        }
        do throws(StorageError) {
            try result.get()
        } catch {
            self.isZeroingPaused = true
            try self.fileSystem.truncate(self.handle, to: self.zeroedEnd)
            return
        }
        self.zeroedEnd += count
        self.statistics.zeroedBytes += UInt64(count)
    }

    /// Cuts the zeros after the records, flushes everything to stable storage (whatever the fsync mode) and closes
    /// the segment.
    func close() throws(StorageError) {
        defer { try? self.fileSystem.close(self.handle) }
        try self.cutZeroTail()
        try self.synchronize(metadata: true)
    }

    /// Releases the descriptor without syncing, after a failure.
    func abandon() {
        try? self.fileSystem.close(self.handle)
    }

    /// Writes `frames[range]` at the current segment's records' end.
    private func write(_ range: Range<Int>) throws(StorageError) {
        guard !range.isEmpty else { return }
        let result = self.frames.withUnsafeBytes { buffer in
            Result { () throws(StorageError) in
                try self.fileSystem.writeAll(
                    self.handle, UnsafeRawBufferPointer(rebasing: buffer[range]), at: self.size)
            }
        }
        try result.get()
        self.size += range.count
        self.zeroedEnd = max(self.zeroedEnd, self.size)
        self.statistics.bytes += UInt64(range.count)
    }

    /// Cuts the segment to its records' length when zeros follow them, so a closed or rolled segment ends with its
    /// last record, as every build's recovery expects of a segment that is not the last.
    private func cutZeroTail() throws(StorageError) {
        guard self.zeroedEnd > self.size else { return }
        try self.fileSystem.truncate(self.handle, to: self.size)
        self.zeroedEnd = self.size
    }

    private func synchronize(metadata: Bool) throws(StorageError) {
        let start = MonotonicClock.now()
        try self.fileSystem.synchronize(self.handle, metadata: metadata)
        self.statistics.fsyncs += 1
        self.statistics.fsyncNanoseconds &+= MonotonicClock.now() &- start
    }

    /// Cuts the full segment to its records, closes it (synced unless fsync is off and nothing was cut) and starts
    /// `wal-<firstLSN>.log`.
    private func roll(firstLSN: UInt64) throws(StorageError) {
        let isCut = self.zeroedEnd > self.size
        try self.cutZeroTail()
        if self.configuration.fsync != .off || isCut {
            try self.synchronize(metadata: true)
        }
        let segment = WALSegment(firstLSN: firstLSN, directory: self.directory)
        let next = try self.fileSystem.open(segment.path, mode: .createNewPositioned)
        try? self.fileSystem.close(self.handle)
        self.handle = next
        self.size = 0
        self.zeroedEnd = 0
        self.isZeroingPaused = false
        if self.configuration.fsync != .off {
            try self.fileSystem.synchronizeDirectory(self.directory)
        }
        self.newSegments.append(segment)
    }
}
