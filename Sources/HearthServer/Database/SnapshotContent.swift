import HearthCore
import HearthStorage

/// How the read view is laid out inside a snapshot file, chosen so recovery can parse on every core.
///
/// The payload is text, one record per line (compact JSON never contains a raw newline, and keys never contain a
/// tab). First where every shard's log stands and the transactions still prepared, then the trees in depth-first
/// key order:
/// ```
/// hearth-snapshot 3
/// I<tab><shard><tab><index>                   every entry of the shard's log up to <index> is reflected
/// T<tab><shard><tab><base64 prepare entry>    a transaction prepared in the shard and not yet finished
/// D<tab><shard><tab><transaction><tab><0|1>   a decision the shard anchors that a prepared part still needs
/// M<tab><shard><tab><namespace><tab><path>    a spine node that may carry a priority (shard snapshots only:
///                                             a node snapshot derives these from the whole trees)
/// C<tab><shard><tab><index>                   how far another shard's entries had been received where a shard
///                                             snapshot was cut (shard snapshots only, `ShardSnapshot.cut`)
/// W<tab><shard><tab><client><tab><last used><tab><settled below><tab><applied, comma-separated>
///                                             a client whose named writes the shard applied (`WriteSessions`)
/// N<tab><namespace>
/// P<tab><spine path><tab><priority JSON>      a priority on a node above the shard depth
/// S<tab><path><tab><export JSON>              the whole node at <path>: a subtree at the shard depth, or a leaf
///                                             standing above it
/// ```
/// Recovery parses the `T` lines, then the `S` lines, in parallel (they are independent), then rebuilds each
/// namespace in one ordered pass with bulk child-map builds, so no path is ever inserted twice. Version 2 files
/// (written before shards had logs of their own) have no `I`, `T` or `D` lines and still load; files written before
/// writes were named have no `W` lines (no shard remembers a write).
enum SnapshotContent {
    static let header = "hearth-snapshot 3"
    static let legacyHeader = "hearth-snapshot 2"

    /// What a snapshot file holds.
    struct Decoded {
        var roots: [String: Node]
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
        var output = SnapshotJSONOutput(sink: sink)
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
        for (namespace, root) in roots.sorted(by: { $0.key < $1.key }) {
            output.write(text: "N\t\(namespace)\n")
            Self.encode(root, at: .root, depth: depth, into: &output)
        }
        sink = output.sink
        if let error = output.error { throw error }
    }

    private static func encode<Sink>(
        _ node: Node, at path: Path, depth: Int, into output: inout SnapshotJSONOutput<Sink>
    ) {
        if node.isEmpty || output.error != nil { return }
        if path.count >= depth || node.isLeaf {
            output.write(text: "S\t\(path.slashless)\t")
            node.writeJSON(format: .export, pretty: false, to: &output)
            output.write(text: "\n")
            return
        }
        if let priority = node.priority {
            output.write(text: "P\t\(path.slashless)\t")
            output.write(bytes: Node.priorityJSON(priority))
            output.write(text: "\n")
        }
        for (key, child) in node.children {
            Self.encode(child, at: path.appending(key), depth: depth, into: &output)
        }
    }

    /// Reads a payload written by `encode` (or a version 2 payload), parsing subtrees on up to `parallelism` tasks.
    static func decode(_ bytes: [UInt8], parallelism: Int) async throws -> Decoded {
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: true)
        guard let first = lines.first,
            [Self.header, Self.legacyHeader].contains(String(decoding: first, as: UTF8.self))
        else {
            throw CommitRecordError("snapshot does not start with \"\(Self.header)\"")
        }
        var decoded = Decoded(roots: [:])
        var records = lines.dropFirst()
        var intentLines: [ArraySlice<UInt8>] = []
        var sessions: [Int: [String: WriteSessions.Session]] = [:]
        while let line = records.first, let kind = line.first,
            [
                UInt8(ascii: "I"), UInt8(ascii: "T"), UInt8(ascii: "D"), UInt8(ascii: "M"), UInt8(ascii: "C"),
                UInt8(ascii: "W"),
            ]
            .contains(kind)
        {
            if kind == UInt8(ascii: "T") {
                intentLines.append(line)
            } else if kind == UInt8(ascii: "W") {
                let (shard, client, session) = try Self.decodeSessionLine(line)
                sessions[shard, default: [:]][client] = session
            } else {
                try Self.decodeShardLine(line, into: &decoded)
            }
            records = records.dropFirst()
        }
        decoded.sessions = sessions.mapValues { WriteSessions(sessions: $0) }
        for (shard, transaction, intent) in try await Self.decodeIntents(intentLines) {
            decoded.intents[shard, default: [:]][transaction] = intent
        }
        decoded.roots = try await Self.decodeTrees(Array(records), parallelism: parallelism)
        return decoded
    }

    /// Decodes the `T` lines concurrently: a snapshot taken while a large import was prepared holds its parts.
    private static func decodeIntents(_ lines: [ArraySlice<UInt8>]) async throws
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
    private static func decodeSessionLine(_ line: ArraySlice<UInt8>) throws
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

    private static func decodeShardLine(_ line: ArraySlice<UInt8>, into decoded: inout Decoded) throws {
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

    private static func decodeTrees(_ records: [ArraySlice<UInt8>], parallelism: Int) async throws -> [String: Node] {
        let chunkSize = max(1, (records.count + parallelism - 1) / max(1, parallelism))
        let parsed = try await withThrowingTaskGroup(of: (Int, [SnapshotLine]).self) { group in
            for start in stride(from: 0, to: records.count, by: chunkSize) {
                let chunk = Array(records[start..<min(start + chunkSize, records.count)])
                group.addTask { (start, try chunk.map(SnapshotLine.init(parsing:))) }
            }
            var pieces: [(Int, [SnapshotLine])] = []
            for try await piece in group { pieces.append(piece) }
            return pieces.sorted { $0.0 < $1.0 }.flatMap(\.1)
        }
        var roots: [String: Node] = [:]
        var builder: TreeAssembler?
        for line in parsed {
            switch line {
            case .namespace(let name):
                if let finished = builder?.finish() { roots[finished.namespace] = finished.root }
                builder = TreeAssembler(namespace: name)
            case .priority(let path, let priority):
                guard builder != nil else { throw CommitRecordError("snapshot has a record before its namespace") }
                builder?.setPriority(priority, at: path)
            case .node(let path, let node):
                guard builder != nil else { throw CommitRecordError("snapshot has a record before its namespace") }
                builder?.add(node, at: path)
            }
        }
        if let finished = builder?.finish() { roots[finished.namespace] = finished.root }
        return roots.filter { !$0.value.isEmpty }
    }
}

/// One parsed line of a snapshot.
enum SnapshotLine: Sendable {
    case namespace(String)
    case priority(Path, Priority?)
    case node(Path, Node)

    init(parsing line: ArraySlice<UInt8>) throws {
        let fields = line.split(separator: 0x09, maxSplits: 2, omittingEmptySubsequences: false)
        guard let kind = fields.first, kind.count == 1, fields.count >= 2 else {
            throw CommitRecordError("snapshot line is malformed")
        }
        if kind.first == UInt8(ascii: "N") {
            self = .namespace(String(decoding: fields[1], as: UTF8.self))
            return
        }
        guard fields.count == 3 else { throw CommitRecordError("snapshot line is malformed") }
        let path = Path(
            keys: String(decoding: fields[1], as: UTF8.self).split(separator: "/").map { Key(unchecked: String($0)) })
        let node = try LogDecoding.writeValue(Array(fields[2]), at: path).node
        switch kind.first {
        case UInt8(ascii: "S"): self = .node(path, node)
        case UInt8(ascii: "P"): self = .priority(path, ResolvedMutation.priority(from: node))
        default: throw CommitRecordError("snapshot line has unknown kind")
        }
    }
}

/// Rebuilds a tree from nodes given in depth-first key order, building each child map once, in bulk.
struct TreeAssembler {
    let namespace: String
    /// The open ancestors of the next node: their keys, collected children and priorities.
    private var frames: [(key: Key?, children: [(key: Key, node: Node)], priority: Priority?)] = [(nil, [], nil)]
    private var openPath: [Key] = []
    /// Set when the namespace's root is itself a leaf (written as one `S` line at the root).
    private var rootLeaf: Node?

    init(namespace: String) {
        self.namespace = namespace
    }

    /// Records the priority of the spine node at `path` (opened if needed).
    mutating func setPriority(_ priority: Priority?, at path: Path) {
        self.open(path.keys)
        self.frames[self.frames.count - 1].priority = priority
    }

    /// Adds the node at `path`; paths must arrive in depth-first key order.
    mutating func add(_ node: Node, at path: Path) {
        guard let last = path.last else {
            self.rootLeaf = node
            return
        }
        self.open(Array(path.keys.dropLast()))
        self.frames[self.frames.count - 1].children.append((last, node))
    }

    /// Closes every open frame and returns the namespace's root.
    mutating func finish() -> (namespace: String, root: Node) {
        self.close(to: 0)
        if let rootLeaf = self.rootLeaf { return (self.namespace, rootLeaf) }
        let root = self.frames[0]
        return (self.namespace, Node(children: ChildMap(sortedUniqueElements: root.children), priority: root.priority))
    }

    private mutating func open(_ keys: [Key]) {
        var shared = 0
        while shared < keys.count, shared < self.openPath.count, keys[shared] == self.openPath[shared] { shared += 1 }
        self.close(to: shared)
        for key in keys[shared...] {
            self.frames.append((key, [], nil))
            self.openPath.append(key)
        }
    }

    private mutating func close(to depth: Int) {
        while self.openPath.count > depth, let frame = self.frames.popLast() {
            self.openPath.removeLast()
            let node = Node(children: ChildMap(sortedUniqueElements: frame.children), priority: frame.priority)
            if let key = frame.key, !node.isEmpty {
                self.frames[self.frames.count - 1].children.append((key, node))
            }
        }
    }
}

/// Where snapshot text goes: a snapshot file, or bytes in memory (a shard's snapshot, as Raft ships it).
protocol SnapshotSink {
    mutating func write(_ bytes: UnsafeRawBufferPointer) throws
}

extension SnapshotWriter: SnapshotSink {}

extension Array: SnapshotSink where Element == UInt8 {}

/// Adapts the JSON writer's streaming output to a snapshot sink, remembering the first write error.
struct SnapshotJSONOutput<Sink: SnapshotSink>: JSONOutput {
    var sink: Sink
    var error: (any Error)?

    mutating func write(_ bytes: UnsafeRawBufferPointer) {
        guard self.error == nil else { return }
        do { try self.sink.write(bytes) } catch { self.error = error }
    }

    mutating func write(bytes: [UInt8]) {
        bytes.withUnsafeBytes { self.write($0) }
    }

    mutating func write(text: String) {
        var text = text
        text.withUTF8 { self.write(UnsafeRawBufferPointer($0)) }
    }
}
