package import HearthCore
import HearthStorage

/// How the read view is laid out inside a snapshot file, chosen so recovery can decode on every core.
///
/// The payload starts with text, one record per line (keys never contain a tab or a newline): where every shard's
/// log stands and the transactions still prepared. Then, after a line `B`, the trees in binary (`SnapshotTrees`):
/// ```
/// hearth-snapshot 4
/// I<tab><shard><tab><index>                   every entry of the shard's log up to <index> is reflected
/// T<tab><shard><tab><base64 prepare entry>    a transaction prepared in the shard and not yet finished
/// D<tab><shard><tab><transaction><tab><0|1>   a decision the shard anchors that a prepared part still needs
/// M<tab><shard><tab><namespace><tab><path>    a spine node that may carry a priority (shard snapshots only:
///                                             a node snapshot derives these from the whole trees)
/// C<tab><shard><tab><index>                   how far another shard's entries had been received where a shard
///                                             snapshot was cut (shard snapshots only, `ShardSnapshot.cut`)
/// W<tab><shard><tab><client><tab><last used><tab><settled below><tab><applied, comma-separated>
///                                             a client whose named writes the shard applied (`WriteSessions`)
/// B
/// <binary tree records to the end>
/// ```
/// Recovery decodes the `T` lines, then the tree records, in parallel (they are independent), then rebuilds each
/// namespace in one ordered pass with bulk child-map builds, so no path is ever inserted twice. Older files still
/// load: version 3 has the trees as text lines (`N<tab><namespace>`, `P<tab><spine path><tab><priority JSON>`,
/// `S<tab><path><tab><export JSON>`); version 2 (written before shards had logs of their own) has no `I`, `T` or `D`
/// lines; files written before writes were named have no `W` lines (no shard remembers a write).
package enum SnapshotContent {
    package static let header = "hearth-snapshot 4"
    /// Versions 3 and 2, whose trees are JSON text lines.
    static let textHeaders = ["hearth-snapshot 3", "hearth-snapshot 2"]

    /// What a snapshot file holds.
    package struct Decoded {
        package var roots: [String: Node]
        /// Per shard; empty for a version 2 file (every shard's log starts at its beginning).
        var appliedIndex: [Int: UInt64] = [:]
        var intents: [Int: [TransactionID: ShardIntent]] = [:]
        var decisions: [Int: [TransactionID: Bool]] = [:]
        /// Per shard and namespace; only shard snapshots hold these.
        var spinePriorities: [Int: [String: Set<Path>]] = [:]
        /// Per other shard, how far it had been received where a shard snapshot was cut.
        var received: [Int: UInt64] = [:]
        /// Per shard: the named writes it applied.
        var sessions: [Int: WriteSessions] = [:]
    }

    /// Where one shard's log stands in a snapshot, and the transactions still open there.
    struct ShardCut: Sendable {
        var shard: Int
        /// Every entry of the shard's log up to this index is reflected.
        var index: UInt64
        var intents: [TransactionID: ShardIntent]
        /// Decisions the shard anchors that a prepared part may still need.
        var decisions: [TransactionID: Bool]
        /// Spine nodes that may carry a priority, per namespace (see `ShardStateMachine.spinePriorities`); written
        /// for a shard snapshot, where the shard's own trees cannot tell them.
        var spinePriorities: [String: Set<Path>] = [:]
        /// The named writes the shard applied.
        var sessions = WriteSessions()
    }

    /// Writes the captured view: shard positions, prepared transactions, then every namespace's tree cut at
    /// `depth` (the shard depth).
    static func encode(_ snapshot: ViewSnapshot, depth: Int, into writer: inout SnapshotWriter) throws {
        let cuts = snapshot.appliedIndex.indices.map { shard in
            ShardCut(
                shard: shard, index: snapshot.appliedIndex[shard], intents: snapshot.intents[shard],
                decisions: snapshot.decisions[shard], sessions: snapshot.sessions[shard])
        }
        try Self.encode(roots: snapshot.roots, cuts: cuts, depth: depth, into: &writer)
    }

    /// Writes `cuts` (and, for a shard snapshot, how far the other shards had been `received`), then every
    /// namespace's tree in `roots` cut at `depth`, to a snapshot file or to bytes.
    static func encode(
        roots: [String: Node], cuts: [ShardCut], received: [Int: UInt64] = [:], depth: Int,
        into sink: inout some SnapshotSink
    ) throws {
        var output = SnapshotOutput(sink: sink)
        output.write(text: Self.header + "\n")
        for cut in cuts {
            output.write(text: "I\t\(cut.shard)\t\(cut.index)\n")
        }
        for (shard, index) in received.sorted(by: { $0.key < $1.key }) {
            output.write(text: "C\t\(shard)\t\(index)\n")
        }
        for cut in cuts {
            for (transaction, intent) in cut.intents.sorted(by: { $0.key < $1.key }) {
                var bytes: [UInt8] = []
                ShardEntry.prepare(transaction, intent).encode(into: &bytes)
                output.write(text: "T\t\(cut.shard)\t\(Base64.encode(bytes))\n")
            }
        }
        for cut in cuts {
            for (transaction, commit) in cut.decisions.sorted(by: { $0.key < $1.key }) {
                output.write(text: "D\t\(cut.shard)\t\(transaction.rawValue)\t\(commit ? 1 : 0)\n")
            }
            for (namespace, paths) in cut.spinePriorities.sorted(by: { $0.key < $1.key }) {
                for path in paths.map(\.slashless).sorted() {
                    output.write(text: "M\t\(cut.shard)\t\(namespace)\t\(path)\n")
                }
            }
            for (client, session) in cut.sessions.sessions.sorted(by: { $0.key < $1.key }) {
                let applied = session.applied.sorted().map(String.init).joined(separator: ",")
                output.write(
                    text: "W\t\(cut.shard)\t\(client)\t\(session.lastUsed)\t\(session.settledBelow)\t\(applied)\n")
            }
        }
        output.write(text: SnapshotTrees.marker + "\n")
        SnapshotTrees.encode(roots: roots, depth: depth, into: &output)
        sink = output.sink
        if let error = output.error { throw error }
    }

    /// Reads a payload written by `encode` (or a version 3 or 2 payload) held whole in memory, decoding trees on up
    /// to `parallelism` tasks.
    static func decode(_ bytes: [UInt8], parallelism: Int) async throws -> Decoded {
        var decoder = SnapshotDecoder(parallelism: parallelism)
        try await decoder.feed(bytes)
        return try await decoder.finish()
    }

    /// Decodes the `T` lines concurrently: a snapshot taken while a large import was prepared holds its parts.
    static func decodeIntents(_ lines: [[UInt8]]) async throws
        -> [(Int, TransactionID, ShardIntent)]
    {
        try await withThrowingTaskGroup(of: (Int, TransactionID, ShardIntent).self) { group in
            for line in lines {
                group.addTask {
                    let fields = line.split(separator: 0x09, omittingEmptySubsequences: false)
                    guard fields.count == 3, let shard = Int(String(decoding: fields[1], as: UTF8.self)),
                        let bytes = Base64.decode(String(decoding: fields[2], as: UTF8.self))
                    else { throw CommitRecordError("snapshot intent is malformed") }
                    var reader = BinaryReader(bytes: bytes)
                    let entry: ShardEntry
                    do {
                        entry = try ShardEntry(reading: &reader)
                    } catch let error as BinaryDecodingError {
                        throw CommitRecordError(error)
                    }
                    guard case .prepare(let transaction, let intent) = entry else {
                        throw CommitRecordError("snapshot intent is not a prepare entry")
                    }
                    return (shard, transaction, intent)
                }
            }
            var intents: [(Int, TransactionID, ShardIntent)] = []
            for try await intent in group { intents.append(intent) }
            return intents
        }
    }

    /// A `W` line: one client's named writes applied in one shard.
    static func decodeSessionLine(_ line: ArraySlice<UInt8>) throws
        -> (shard: Int, client: String, session: WriteSessions.Session)
    {
        let fields = line.split(separator: 0x09, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        guard fields.count == 6, let shard = Int(fields[1]), !fields[2].isEmpty, let lastUsed = Int64(fields[3]),
            let settledBelow = UInt64(fields[4])
        else { throw CommitRecordError("snapshot write session is malformed") }
        var applied = Set<UInt64>()
        for text in fields[5].split(separator: ",") {
            guard let sequence = UInt64(text) else { throw CommitRecordError("snapshot write session is malformed") }
            applied.insert(sequence)
        }
        return (
            shard, fields[2], WriteSessions.Session(settledBelow: settledBelow, applied: applied, lastUsed: lastUsed)
        )
    }

    static func decodeShardLine(_ line: ArraySlice<UInt8>, into decoded: inout Decoded) throws {
        let fields = line.split(separator: 0x09, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        guard fields.count >= 3, let shard = Int(fields[1]) else {
            throw CommitRecordError("snapshot line is malformed")
        }
        switch fields[0] {
        case "I":
            guard let index = UInt64(fields[2]) else { throw CommitRecordError("snapshot shard index is malformed") }
            decoded.appliedIndex[shard] = index
        case "C":
            guard let index = UInt64(fields[2]) else { throw CommitRecordError("snapshot cut index is malformed") }
            decoded.received[shard] = index
        case "M":
            guard fields.count == 4 else { throw CommitRecordError("snapshot spine mark is malformed") }
            decoded.spinePriorities[shard, default: [:]][fields[2], default: []].insert(LogDecoding.path(fields[3]))
        default:
            guard fields.count == 4, let raw = UInt64(fields[2]) else {
                throw CommitRecordError("snapshot decision is malformed")
            }
            decoded.decisions[shard, default: [:]][TransactionID(rawValue: raw)] = fields[3] == "1"
        }
    }

    /// A version 3 or 2 snapshot's tree lines, parsed on up to `parallelism` tasks.
    static func decodeTextTrees(_ records: [ArraySlice<UInt8>], parallelism: Int) async throws
        -> [SnapshotLine]
    {
        let chunkSize = max(1, (records.count + parallelism - 1) / max(1, parallelism))
        return try await withThrowingTaskGroup(of: (Int, [SnapshotLine]).self) { group in
            for start in stride(from: 0, to: records.count, by: chunkSize) {
                let chunk = Array(records[start..<min(start + chunkSize, records.count)])
                group.addTask { (start, try chunk.map(SnapshotLine.init(parsing:))) }
            }
            var pieces: [(Int, [SnapshotLine])] = []
            for try await piece in group { pieces.append(piece) }
            return pieces.sorted { $0.0 < $1.0 }.flatMap(\.1)
        }
    }
}
