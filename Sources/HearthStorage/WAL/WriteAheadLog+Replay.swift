import HearthSystem

extension WriteAheadLog {
    /// Recovery: every record with lsn > `lsn`, in order (call before start()). Reads and re-verifies the segments
    /// that can hold such records. O(size of those segments).
    ///
    /// - Throws: `StorageError` `.missingRecords` when the log no longer reaches back to `lsn + 1` (its older
    ///   segments were truncated), `.damagedSegment` if a file changed since opening, I/O errors, or what `body`
    ///   throws.
    public func replay(after lsn: UInt64, _ body: (WALRecord) throws -> Void) throws {
        let segments = self.state.withLock { $0.segments }
        let last = self.recoveredLSN
        guard lsn < last else { return }
        guard let first = segments.first, first.firstLSN <= lsn + 1 else {
            throw StorageError(
                .missingRecords,
                "The write-ahead log in \(self.directory) starts at LSN \(segments.first?.firstLSN ?? 0) but "
                    + "recovery needs every record after LSN \(lsn). Restore the missing segments or a snapshot "
                    + "taken at LSN \(segments.first?.firstLSN ?? 1) or later.",
                path: self.directory
            )
        }
        for (index, segment) in segments.enumerated() {
            if index + 1 < segments.count && segments[index + 1].firstLSN <= lsn + 1 { continue }
            if segment.firstLSN > last { break }
            let bytes = try self.fileSystem.readAll(segment.path)
            var expected = segment.firstLSN
            var offset = 0
            while offset < bytes.count && expected <= last {
                let decoded = bytes.withUnsafeBytes { WALFrame.decode($0, at: offset) }
                guard case .record(let recordLSN, let payload, let end) = decoded, recordLSN == expected else {
                    throw WALRecovery.damaged(segment.path, offset: offset, expectedLSN: expected)
                }
                if recordLSN > lsn {
                    try body(
                        WALRecord(
                            lsn: recordLSN, payload: Array(bytes[payload]), location: (segment.path, offset)))
                }
                expected += 1
                offset = end
            }
        }
    }

    /// The LSN of the oldest record the log still holds (1 for a log never truncated): recovery replays the records
    /// after `firstLSN - 1`.
    public var firstLSN: UInt64 {
        self.state.withLock { $0.segments.first?.firstLSN ?? 1 }
    }

    /// Every record up to this LSN sits in a segment that is no longer written to (0 while the log has only its
    /// active segment): the most a `truncate(through:)` can remove now.
    public var sealedThrough: UInt64 {
        self.state.withLock { state in
            guard state.segments.count > 1, let active = state.segments.last else { return 0 }
            return active.firstLSN - 1
        }
    }

    /// Deletes whole segments whose records are all ≤ `lsn` (they are covered by a snapshot). The segment being
    /// written is never deleted. Deletion stops at the first failure so the log never gets a hole. O(segments).
    public func truncate(through lsn: UInt64) {
        self.truncation.withLock { _ in
            let doomed = self.state.withLock { state -> [WALSegment] in
                var doomed: [WALSegment] = []
                while state.segments.count > 1 && state.segments[1].firstLSN - 1 <= lsn {
                    doomed.append(state.segments.removeFirst())
                }
                return doomed
            }
            for (index, segment) in doomed.enumerated() {
                do {
                    try self.fileSystem.remove(segment.path)
                } catch {
                    let kept = Array(doomed[index...])
                    self.state.withLock { $0.segments.insert(contentsOf: kept, at: 0) }
                    break
                }
            }
            if !doomed.isEmpty {
                try? self.fileSystem.synchronizeDirectory(self.directory)
            }
        }
    }
}
