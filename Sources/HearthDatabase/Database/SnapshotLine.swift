import HearthCore

/// One record of a snapshot's trees: a namespace starts, a spine node's priority, or a whole node: the child `key`
/// of the node at `parent`, or the namespace's root when `key` is nil.
enum SnapshotLine: Sendable {
    case namespace(String)
    case priority(Path, Priority?)
    case node(parent: Path, key: Key?, Node)

    /// A text line of a version 2 or 3 snapshot: `N<tab><namespace>`, `P<tab><path><tab><priority JSON>` or
    /// `S<tab><path><tab><export JSON>`.
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
        case UInt8(ascii: "S"): self = .node(parent: Path(keys: Array(path.keys.dropLast())), key: path.last, node)
        case UInt8(ascii: "P"): self = .priority(path, ResolvedMutation.priority(from: node))
        default: throw CommitRecordError("snapshot line has unknown kind")
        }
    }
}
