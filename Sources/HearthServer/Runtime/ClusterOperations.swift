public import HearthCore

/// What the operations endpoints can ask of a cluster member beyond its database: its view of the cluster
/// (`GET /.cluster`) and, when the node was started with fault injection on, cutting and healing its links to other
/// members (`POST /.cluster/partition`, `POST /.cluster/heal`, used by `scripts/cluster partition`).
public protocol ClusterOperations: Sendable {
    /// This node, the members and every shard's group as this node sees them, as JSON.
    var status: JSONValue { get }
    /// Drops every frame to and from the named members (replacing an earlier partition).
    /// - Throws: an error whose description names the members that are not others of this cluster.
    func partition(from peers: [String]) throws(ClusterNodeError)
    /// Lets frames flow to and from every member again.
    func heal()
}
