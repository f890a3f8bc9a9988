public import HearthCore

/// What the operations endpoints can ask of a cluster member beyond its database: its view of the cluster
/// (`GET /.cluster`), removing a member (`POST /.cluster/remove`, used by `hearth cluster remove`) and, when the
/// node was started with fault injection on, cutting and healing its links to other members
/// (`POST /.cluster/partition`, `POST /.cluster/heal`, used by `scripts/cluster partition`).
public protocol ClusterOperations: Sendable {
    /// This node, the members and every shard's group as this node sees them, as JSON.
    var status: JSONValue { get }
    /// Drops every frame to and from the named members (replacing an earlier partition).
    /// - Throws: an error whose description names the members that are not others of this cluster.
    func partition(from peers: [String]) throws(ClusterNodeError)
    /// Lets frames flow to and from every member again.
    func heal()
    /// Starts removing the member named `id`: its replicas move to the others, then the member list drops it.
    func removeMember(_ id: String) async -> MemberRemovalAnswer
}

/// How a node answered a request to remove a member.
public enum MemberRemovalAnswer: Sendable, Equatable {
    /// The member is leaving (or has left): its replicas are moving off, and the member list drops it after.
    case leaving
    /// Only the member list's leader takes the change: ask it, at this HTTP address (`host:port`).
    case redirect(http: String)
    /// The removal breaks a rule; the message says which and what to do.
    case refused(String)
    /// No answer can be given now (an election, a change not yet confirmed); retry.
    case unavailable(String)
}
