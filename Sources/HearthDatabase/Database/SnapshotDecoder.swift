import HearthCore

/// Decodes a snapshot payload (`SnapshotContent`'s layout) fed in chunks of any size, so recovery holds one chunk of
/// a gigabyte file at a time beside the trees it builds from it. Each chunk's complete tree records are decoded on
/// up to `parallelism` tasks as soon as it arrives; a line or record cut by the chunk's end waits for the next one.
package struct SnapshotDecoder {
    private enum Stage {
        /// Before the header line.
        case header
        /// Reading the shard lines (`I`, `T`, `D`, `M`, `C`, `W`); `binary` for version 4.
        case shardLines(binary: Bool)
        /// Version 4's tree records, after the line `B`.
        case trees
        /// After version 4's end record: nothing may follow.
        case ended
        /// A version 3 or 2 payload's tree lines, gathered whole and parsed at the end.
        case textTrees
    }

    private let parallelism: Int
    private var stage = Stage.header
    /// Bytes fed and not consumed yet: the start of a line or record the last chunk cut.
    private var pending: [UInt8] = []
    /// Bytes consumed before `pending` (for offsets in errors).
    private var consumed = 0
    /// How many bytes at the start of `pending` are known to hold no newline: a long line (a large import's
    /// prepared part) cut by many chunks is searched once, not once per chunk.
    private var searched = 0
    private var decoded = SnapshotContent.Decoded(roots: [:])
    private var intentLines: [[UInt8]] = []
    private var sessions: [Int: [String: WriteSessions.Session]] = [:]
    private var roots = SnapshotRoots()
    private var textTrees: [UInt8] = []

    private static let shardKinds: [UInt8] = ["I", "T", "D", "M", "C", "W"].map { UInt8(ascii: $0) }

    package init(parallelism: Int) {
        self.parallelism = max(1, parallelism)
    }

    /// Takes the next bytes of the payload.
    /// - Throws: `CommitRecordError` where the payload is not a snapshot's.
    package mutating func feed(_ chunk: [UInt8]) async throws {
        if self.pending.isEmpty {
            self.pending = chunk
        } else {
            self.pending.append(contentsOf: chunk)
        }
        try await self.decodePending()
    }

    /// Takes the bytes `read` appends to the ones held (it returns false when there are none left), and decodes
    /// them like `feed(_:)`; returns what `read` returned. The bytes are held in one buffer from chunk to chunk.
    mutating func feed(from read: (inout [UInt8]) throws -> Bool) async throws -> Bool {
        guard try read(&self.pending) else { return false }
        try await self.decodePending()
        return true
    }

    /// Decodes what `pending` holds, up to a line or record its end cuts, and keeps only that rest.
    private mutating func decodePending() async throws {
        var offset = 0
        while let line = self.nextLine(from: &offset) {
            let start = offset - line.count - 1
            guard try self.take(line, at: start) else { continue }
            // A version 3 or 2 payload's first tree line is one of its trees.
            if case .textTrees = self.stage { offset = start }
            break
        }
        switch self.stage {
        case .textTrees:
            self.textTrees.append(contentsOf: self.pending[offset...])
            offset = self.pending.count
        case .trees:
            let (end, ended) = try await SnapshotTrees.decode(
                self.pending, from: offset, parallelism: self.parallelism, into: &self.roots)
            offset = end
            if ended { self.stage = .ended }
        case .header, .shardLines, .ended:
            break
        }
        switch self.stage {
        case .header, .shardLines: self.searched = self.pending.count - offset
        case .trees, .ended, .textTrees: self.searched = 0
        }
        if case .ended = self.stage, offset < self.pending.count {
            throw CommitRecordError(
                "snapshot trees are damaged: bytes follow the end record at byte \(self.consumed + offset)")
        }
        self.consumed += offset
        self.pending.removeSubrange(0..<offset)
    }

    /// What the payload holds, once all of it has been fed.
    /// - Throws: `CommitRecordError` when the payload ended early or a record is damaged.
    package mutating func finish() async throws -> SnapshotContent.Decoded {
        switch self.stage {
        case .header:
            throw CommitRecordError(
                "snapshot does not start with \"\(SnapshotContent.header)\" (or an earlier version's header)")
        case .shardLines(let binary):
            guard !binary else {
                throw CommitRecordError("snapshot has no line \"\(SnapshotTrees.marker)\" before its trees")
            }
        case .trees:
            throw CommitRecordError(
                "snapshot trees are damaged: the payload ends at byte \(self.consumed + self.pending.count) inside "
                    + "a record or before the end record")
        case .ended:
            break
        case .textTrees:
            let lines = self.textTrees.split(separator: 0x0A, omittingEmptySubsequences: true)
            for line in try await SnapshotContent.decodeTextTrees(lines, parallelism: self.parallelism) {
                try self.roots.add(line)
            }
        }
        guard self.pending.allSatisfy({ $0 == 0x0A }) else {
            throw CommitRecordError("snapshot ends inside a line at byte \(self.consumed)")
        }
        self.decoded.sessions = self.sessions.mapValues { WriteSessions(sessions: $0) }
        for (shard, transaction, intent) in try await SnapshotContent.decodeIntents(self.intentLines) {
            self.decoded.intents[shard, default: [:]][transaction] = intent
        }
        self.decoded.roots = self.roots.finish()
        return self.decoded
    }

    /// Handles one complete text line that starts at `start` in `pending`; returns true when the shard lines end
    /// there.
    private mutating func take(_ line: ArraySlice<UInt8>, at start: Int) throws -> Bool {
        switch self.stage {
        case .header:
            let header = String(decoding: line, as: UTF8.self)
            guard header == SnapshotContent.header || SnapshotContent.textHeaders.contains(header) else {
                throw CommitRecordError(
                    "snapshot does not start with \"\(SnapshotContent.header)\" (or an earlier version's header)")
            }
            self.stage = .shardLines(binary: header == SnapshotContent.header)
            return false
        case .shardLines(let binary):
            guard let kind = line.first, Self.shardKinds.contains(kind) else {
                if !binary {
                    self.stage = .textTrees
                } else if line.elementsEqual(SnapshotTrees.marker.utf8) {
                    self.stage = .trees
                } else {
                    throw CommitRecordError(
                        "snapshot has a line of kind \(String(decoding: line.prefix(1), as: UTF8.self)) among its "
                            + "shard lines at byte \(self.consumed + start)")
                }
                return true
            }
            if kind == UInt8(ascii: "T") {
                self.intentLines.append(Array(line))
            } else if kind == UInt8(ascii: "W") {
                let (shard, client, session) = try SnapshotContent.decodeSessionLine(line)
                self.sessions[shard, default: [:]][client] = session
            } else {
                try SnapshotContent.decodeShardLine(line, into: &self.decoded)
            }
            return false
        case .trees, .ended, .textTrees:
            return true
        }
    }

    /// The next complete non-empty line of `pending` at or after `offset` (moved past its newline), or nil when no
    /// newline follows or the lines have ended.
    private func nextLine(from offset: inout Int) -> ArraySlice<UInt8>? {
        switch self.stage {
        case .header, .shardLines: break
        case .trees, .ended, .textTrees: return nil
        }
        while let end = self.pending[max(offset, self.searched)...].firstIndex(of: 0x0A) {
            defer { offset = end + 1 }
            if end > offset { return self.pending[offset..<end] }
        }
        return nil
    }
}
