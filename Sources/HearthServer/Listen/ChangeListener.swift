public import HearthCore

/// Something that wants to hear about committed changes at or below a path: an SSE stream or a wire-protocol
/// listen.
///
/// `changed` is called on the log's commit thread, in commit order, for every record touching the listener's path
/// (at, above or below it). It must not block: implementations format events and queue bytes on a connection.
public protocol ChangeListener: AnyObject, Sendable {
    var namespace: String { get }
    var path: Path { get }
    func changed(_ change: CommittedChange)
}

/// One committed record as listeners see it: the mutations plus the namespace root before and after.
public struct CommittedChange: Sendable {
    public let record: CommitRecord
    public let lsn: UInt64
    public let oldRoot: Node
    public let newRoot: Node

    /// True when some mutation touches `path`, an ancestor of it, or a descendant of it.
    public func touches(_ path: Path) -> Bool {
        self.record.mutations.contains { $0.path.contains(path) || path.contains($0.path) }
    }
}
