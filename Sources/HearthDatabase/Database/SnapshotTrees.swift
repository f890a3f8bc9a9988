import HearthCore

/// The trees of a version 4 snapshot: binary records from the line `B` to the end of the payload, each
/// ```
/// N <varint n><namespace>                          the namespace the following records belong to
/// P <varint n><spine path><varint m><leaf>         a priority on a node above the shard depth
/// S <varint n><path><varint m><node>               the whole node at <path>: a subtree at the shard depth, or a
///                                                  leaf standing above it
/// E                                                the end: a payload cut short at a record's end is refused
/// ```
/// with paths as keys joined by `/` and nodes in `NodeBinary`'s form, in depth-first key order. Every record says
/// how long it is, so recovery splits them into runs by reading the lengths alone and decodes the runs on every
/// core; version 3 wrote the same records as JSON text lines, whose parsing bound a 1 GB node's restart.
enum SnapshotTrees {
    static let namespaceKind = UInt8(ascii: "N")
    static let priorityKind = UInt8(ascii: "P")
    static let nodeKind = UInt8(ascii: "S")
    static let endKind = UInt8(ascii: "E")
    /// The text line that ends a version 4 snapshot's shard records; the trees follow it.
    static let marker = "B"

    /// Writes every namespace's tree in `roots`, cut at `depth`.
    static func encode<Sink>(roots: [String: Node], depth: Int, into output: inout SnapshotOutput<Sink>) {
        var encoder = Encoder()
        for (namespace, root) in roots.sorted(by: { $0.key < $1.key }) {
            encoder.record(Self.namespaceKind, name: Array(namespace.utf8), node: nil, into: &output)
            encoder.encode(root, at: .root, depth: depth, into: &output)
        }
        output.write(bytes: [Self.endKind])
    }

    /// Decodes the complete records in `bytes[start...]` on up to `parallelism` tasks and feeds them to `roots` in
    /// order, each run as soon as the runs before it are in (so assembling overlaps decoding).
    /// - Returns: where the first record the bytes cut short starts (or their end), and whether the end record was
    ///   read.
    /// - Throws: `CommitRecordError` saying where the records are damaged.
    static func decode(_ bytes: [UInt8], from start: Int, parallelism: Int, into roots: inout SnapshotRoots)
        async throws -> (end: Int, ended: Bool)
    {
        let framing = try Self.decoding {
            try bytes.withUnsafeBytes { raw in try Self.runs(raw, from: start, count: max(1, parallelism) * 8) }
        }
        try await withThrowingTaskGroup(of: (Int, [SnapshotLine]).self) { group in
            for (index, run) in framing.runs.enumerated() {
                group.addTask {
                    let lines = try Self.decoding {
                        try bytes.withUnsafeBytes { raw in
                            var records = RecordReader(
                                NodeBinaryReader(
                                    bytes: UnsafeRawBufferPointer(rebasing: raw[..<run.upperBound]),
                                    offset: run.lowerBound))
                            var lines: [SnapshotLine] = []
                            while let line = try records.next() { lines.append(line) }
                            return lines
                        }
                    }
                    return (index, lines)
                }
            }
            var decoded: [Int: [SnapshotLine]] = [:]
            var next = 0
            for try await (index, lines) in group {
                decoded[index] = lines
                while let lines = decoded.removeValue(forKey: next) {
                    for line in lines { try roots.add(line) }
                    next += 1
                }
            }
        }
        return (framing.end, framing.ended)
    }

    /// Splits the complete records from `start` into about `count` runs of similar size, reading only their
    /// lengths; stops at the end record or at a record the bytes cut short.
    private static func runs(_ raw: UnsafeRawBufferPointer, from start: Int, count: Int) throws(BinaryDecodingError)
        -> (runs: [Range<Int>], end: Int, ended: Bool)
    {
        let target = max(1, (raw.count - start) / count)
        var runs: [Range<Int>] = []
        var runStart = start
        var offset = start
        var ended = false
        while offset < raw.count {
            if raw[offset] == Self.endKind {
                ended = true
                break
            }
            guard let end = try Self.recordEnd(raw, from: offset) else { break }
            offset = end
            if offset - runStart >= target {
                runs.append(runStart..<offset)
                runStart = offset
            }
        }
        if runStart < offset { runs.append(runStart..<offset) }
        return (runs, ended ? offset + 1 : offset, ended)
    }

    /// Where the record at `start` ends, or nil when the bytes end inside it.
    private static func recordEnd(_ raw: UnsafeRawBufferPointer, from start: Int) throws(BinaryDecodingError) -> Int? {
        var reader = NodeBinaryReader(bytes: raw, offset: start + 1)
        let kind = raw[start]
        for _ in 0..<(kind == Self.namespaceKind ? 1 : 2) {
            guard let length = try reader.varintIfComplete() else { return nil }
            guard length <= UInt64(raw.count - reader.offset) else { return nil }
            _ = try reader.bytes(count: Int(length))
        }
        return reader.offset
    }

    /// Runs `body`, saying in a `CommitRecordError` where the trees are damaged when it throws.
    private static func decoding<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as BinaryDecodingError {
            throw CommitRecordError("snapshot trees are damaged: \(error)")
        }
    }

    /// Reads records one after another; consecutive records under one parent share its `Path`.
    struct RecordReader {
        private var reader: NodeBinaryReader
        private var parentBytes = UnsafeRawBufferPointer(start: nil, count: 0)
        private var parent = Path.root

        init(_ reader: NodeBinaryReader) {
            self.reader = reader
        }

        /// The next record, or nil at the end of the bytes.
        mutating func next() throws(BinaryDecodingError) -> SnapshotLine? {
            guard !self.reader.isAtEnd else { return nil }
            let start = self.reader.offset
            let kind = try self.reader.byte()
            let name = try self.reader.bytes(count: try self.reader.length())
            if kind == SnapshotTrees.namespaceKind { return .namespace(String(decoding: name, as: UTF8.self)) }
            let node: Node
            do {
                node = try NodeBinary.decode(try self.reader.bytes(count: try self.reader.length()))
            } catch {
                throw BinaryDecodingError("in the record at byte \(start): \(error)")
            }
            let slash = name.lastIndex(of: UInt8(ascii: "/"))
            let parentBytes = UnsafeRawBufferPointer(rebasing: name[..<(slash ?? name.startIndex)])
            if !parentBytes.elementsEqual(self.parentBytes) {
                self.parent = Path(keys: try Self.keys(parentBytes, at: start))
                self.parentBytes = parentBytes
            }
            let keyBytes = UnsafeRawBufferPointer(rebasing: name[(slash.map { $0 + 1 } ?? 0)...])
            let key = slash == nil && keyBytes.isEmpty ? nil : try Self.key(keyBytes, at: start)
            switch kind {
            case SnapshotTrees.nodeKind:
                return .node(parent: self.parent, key: key, node)
            case SnapshotTrees.priorityKind:
                guard let priority = ResolvedMutation.priority(from: node) else {
                    throw BinaryDecodingError("the priority at byte \(start) is not a number or a string")
                }
                return .priority(key.map { self.parent.appending($0) } ?? self.parent, priority)
            default:
                throw BinaryDecodingError("the snapshot record at byte \(start) has unknown kind \(kind)")
            }
        }

        /// The keys of a path written as keys joined by `/` (none for the empty path), each a valid key.
        private static func keys(_ bytes: UnsafeRawBufferPointer, at start: Int) throws(BinaryDecodingError) -> [Key] {
            guard !bytes.isEmpty else { return [] }
            var keys: [Key] = []
            for key in bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
                keys.append(try Self.key(UnsafeRawBufferPointer(rebasing: key), at: start))
            }
            return keys
        }

        private static func key(_ bytes: UnsafeRawBufferPointer, at start: Int) throws(BinaryDecodingError) -> Key {
            guard Key.isValid(bytes.assumingMemoryBound(to: UInt8.self)) else {
                throw BinaryDecodingError("the path of the snapshot record at byte \(start) holds an invalid key")
            }
            return Key(unchecked: String(decoding: bytes, as: UTF8.self))
        }
    }

    /// Writes records, reusing its buffers from one record to the next.
    private struct Encoder {
        private var header: [UInt8] = []
        private var body: [UInt8] = []

        mutating func encode<Sink>(_ node: Node, at path: Path, depth: Int, into output: inout SnapshotOutput<Sink>) {
            if node.isEmpty || output.error != nil { return }
            if path.count >= depth || node.isLeaf {
                self.record(SnapshotTrees.nodeKind, name: Array(path.slashless.utf8), node: node, into: &output)
                return
            }
            if let priority = node.priority {
                self.record(
                    SnapshotTrees.priorityKind, name: Array(path.slashless.utf8), node: Node(priority.leafValue),
                    into: &output)
            }
            for (key, child) in node.children {
                self.encode(child, at: path.appending(key), depth: depth, into: &output)
            }
        }

        mutating func record<Sink>(
            _ kind: UInt8, name: [UInt8], node: Node?, into output: inout SnapshotOutput<Sink>
        ) {
            self.header.removeAll(keepingCapacity: true)
            self.header.append(kind)
            NodeBinary.appendVarint(UInt64(name.count), to: &self.header)
            self.header.append(contentsOf: name)
            guard let node else {
                output.write(bytes: self.header)
                return
            }
            self.body.removeAll(keepingCapacity: true)
            NodeBinary.append(node, to: &self.body)
            NodeBinary.appendVarint(UInt64(self.body.count), to: &self.header)
            output.write(bytes: self.header)
            output.write(bytes: self.body)
            // One huge subtree should not keep its buffer for the rest of the snapshot.
            if self.body.capacity > 1 << 24 { self.body = [] }
        }
    }
}
