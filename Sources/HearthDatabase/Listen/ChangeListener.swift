public import HearthCore

/// Something that wants to hear about committed changes at or below a path: an SSE stream or a wire-protocol
/// listen.
///
/// `changed` is called on the log's commit thread, in commit order, for every change touching the listener's path
/// (at, above or below it). It must not block: implementations format events and queue bytes on a connection.
public protocol ChangeListener: AnyObject, Sendable {
    var namespace: String { get }
    var path: Path { get }
    func changed(_ change: CommittedChange)
}

/// One committed change as listeners see it: a write, or a whole multi-shard transaction, with the namespace root
/// before and after it.
public struct CommittedChange: Sendable {
    public let namespace: String
    /// The resolved mutations, in the order they were applied.
    public let mutations: [ResolvedMutation]
    /// The read view's count of applied changes: strictly increasing.
    public let sequence: UInt64
    public let oldRoot: Node
    public let newRoot: Node

    /// How this change reaches the value at a listener's path.
    public enum Effect {
        /// A write above `path` replaced the value there (which may be unchanged).
        case replaced(old: Node, new: Node)
        /// The mutations at or below `path`, in record order (empty when none touch it).
        case inside([ResolvedMutation])
    }

    /// Classifies the change for a listener at `path`: every front end turns this into its own events.
    public func effect(at path: Path) -> Effect {
        let mutations = self.mutations
        if mutations.contains(where: { $0.path.count < path.count && $0.path.contains(path) }) {
            return .replaced(old: self.oldRoot.node(at: path), new: self.newRoot.node(at: path))
        }
        return .inside(mutations.filter { path.contains($0.path) })
    }

    /// True when some mutation touches `path`, an ancestor of it, or a descendant of it.
    public func touches(_ path: Path) -> Bool {
        self.mutations.contains { $0.path.contains(path) || path.contains($0.path) }
    }
}
