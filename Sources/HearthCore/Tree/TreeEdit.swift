/// One edit of a tree at a path, every server value already resolved: a set (a delete when the node is empty) or a
/// priority change. What a shard's log entries resolve to and what replicas apply (`ResolvedMutation`).
public enum TreeEdit: Sendable, Equatable {
    case set(Path, Node)
    case setPriority(Path, Priority?)

    public var path: Path {
        switch self {
        case .set(let path, _), .setPriority(let path, _): path
        }
    }

    /// Applies the edit to a tree root with Firebase's set semantics, editing in place what only `root` holds.
    public func apply(to root: inout Node) {
        switch self {
        case .set(let path, let node): root.set(node, at: path)
        case .setPriority(let path, let priority): root.setPriority(priority, at: path)
        }
    }
}
