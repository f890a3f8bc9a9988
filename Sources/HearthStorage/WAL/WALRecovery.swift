/// Opening-time scan of a log directory: finds the segments, checks every record, truncates a torn tail and refuses
/// to continue past damage that could hide acknowledged writes.
///
/// A torn tail is damage in the **last** segment (an incomplete frame, or a frame whose checksum fails) with no valid
/// frame anywhere after it: the writer died mid-batch, nothing after that point was acknowledged, and the file is cut
/// there. Anything else — a bad frame followed by a valid one, a bad frame in an earlier segment, or an LSN gap —
/// throws `StorageError.Code.damagedSegment`, because dropping it could lose acknowledged writes.
///
/// A zero tail is the clean end of the last segment: where the next frame would start, every byte to the file's end
/// is zero (the writer's zeros ahead of its records, `WALConfiguration.zeroAheadBytes`, whole or as a crash left a
/// prefix of them). No frame starts with a zero header (its LSN is at least 1), so the records end there; the file
/// keeps its zeros for the writer to fill. Zeros followed by anything else are judged as a torn or damaged frame,
/// as before: zeros before a valid frame never end the log.
package enum WALRecovery {
    /// What the scan found.
    package struct Outcome: Sendable, Hashable {
        /// Every segment, oldest first; empty for an empty directory.
        package var segments: [WALSegment]
        /// The LSN of the last valid record, or `segments[0].firstLSN - 1` when the log holds none.
        package var lastLSN: UInt64
        /// The end of the last segment's records (its size after any truncation, less a zero tail).
        package var lastSegmentSize: Int
        /// The last segment's file size: `lastSegmentSize` plus its zero tail.
        package var lastSegmentFileSize: Int
        /// Where the last segment was cut because of a torn tail, when it was.
        package var truncatedTailOffset: Int?
    }

    /// Scans `directory` and repairs a torn tail. O(total log size).
    package static func recover(
        directory: String,
        fileSystem: any FileSystem
    ) throws(StorageError) -> Outcome {
        let segments = try Self.segments(in: directory, fileSystem: fileSystem)
        guard let first = segments.first else {
            return Outcome(
                segments: [], lastLSN: 0, lastSegmentSize: 0, lastSegmentFileSize: 0, truncatedTailOffset: nil)
        }
        guard first.firstLSN >= 1 else {
            throw Self.damaged(first.path, offset: 0, expectedLSN: 1)
        }
        var expected = first.firstLSN
        var outcome = Outcome(
            segments: segments,
            lastLSN: first.firstLSN - 1,
            lastSegmentSize: 0,
            lastSegmentFileSize: 0,
            truncatedTailOffset: nil
        )
        for (index, segment) in segments.enumerated() {
            guard segment.firstLSN == expected else {
                throw Self.damaged(segment.path, offset: 0, expectedLSN: expected)
            }
            let isLast = index == segments.count - 1
            let bytes = try fileSystem.readAll(segment.path)
            let scanned = bytes.withUnsafeBytes { buffer in
                Result { () throws(StorageError) in
                    try Self.scan(buffer, segment: segment, isLast: isLast, expected: &expected)
                }
            }
            let end = try scanned.get()
            if isLast {
                outcome.lastSegmentSize = end
                outcome.lastSegmentFileSize = bytes.count
                if end < bytes.count && !Self.isZeroTail(bytes, from: end) {
                    try Self.truncate(segment.path, to: end, fileSystem: fileSystem)
                    outcome.lastSegmentFileSize = end
                    outcome.truncatedTailOffset = end
                }
            }
        }
        outcome.lastLSN = expected - 1
        return outcome
    }

    /// The segment files in `directory`, oldest first. O(entries · log entries).
    package static func segments(
        in directory: String,
        fileSystem: any FileSystem
    ) throws(StorageError) -> [WALSegment] {
        try fileSystem.contents(ofDirectory: directory)
            .compactMap { name in
                WALSegment.firstLSN(fileName: name).map { WALSegment(firstLSN: $0, directory: directory) }
            }
            .sorted()
    }

    /// Checks the frames of one segment; returns where valid data ends. Throws on damage that is not a torn tail.
    private static func scan(
        _ bytes: UnsafeRawBufferPointer,
        segment: WALSegment,
        isLast: Bool,
        expected: inout UInt64
    ) throws(StorageError) -> Int {
        var offset = 0
        while offset < bytes.count {
            switch WALFrame.decode(bytes, at: offset) {
            case .record(let lsn, _, let end):
                guard lsn == expected else {
                    throw Self.damaged(segment.path, offset: offset, expectedLSN: expected)
                }
                expected += 1
                offset = end
            case .incomplete, .corrupt:
                if isLast && Self.isZeroTail(bytes, from: offset) {
                    return offset
                }
                guard isLast, !WALFrame.hasValidFrame(bytes, after: offset) else {
                    throw Self.damaged(segment.path, offset: offset, expectedLSN: expected)
                }
                return offset
            }
        }
        return offset
    }

    /// Whether every byte of `bytes` from `offset` on is zero: a zero tail, the log's clean end. O(tail).
    private static func isZeroTail(_ bytes: some Collection<UInt8>, from offset: Int) -> Bool {
        bytes.dropFirst(offset).allSatisfy { $0 == 0 }
    }

    private static func truncate(_ path: String, to size: Int, fileSystem: any FileSystem) throws(StorageError) {
        let handle = try fileSystem.open(path, mode: .append)
        defer { try? fileSystem.close(handle) }
        try fileSystem.truncate(handle, to: size)
        try fileSystem.synchronize(handle, metadata: true)
    }

    /// The error for a damaged segment, worded so an operator knows both ways forward.
    package static func damaged(_ path: String, offset: Int, expectedLSN: UInt64) -> StorageError {
        StorageError(
            .damagedSegment,
            "WAL segment \(path) is damaged at offset \(offset) (expected LSN \(expectedLSN)): the node will not "
                + "start so that no acknowledged write is silently lost. Restore the data directory from a backup, "
                + "or move the damaged segment away to accept losing the writes after LSN \(expectedLSN - 1).",
            path: path,
            offset: offset
        )
    }
}
