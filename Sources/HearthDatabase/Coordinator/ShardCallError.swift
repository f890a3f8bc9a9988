package import HearthCluster

/// A shard command could not be carried out by the shard's leader on another node.
package struct ShardCallError: Error, Sendable, CustomStringConvertible {
    package enum Kind: Sendable {
        /// No leader of the shard could be found in time (an election is running, or too few replicas are up).
        case noLeader
        /// The peer transport would not queue the call (the leader is cut off or its queue is full).
        case unreachable(NodeID)
        /// The leader did not answer in time: whether the command took effect is unknown.
        case timedOut(NodeID)
        /// The connection to the leader was lost before it answered: whether the command took effect is unknown.
        case connectionLost(NodeID)
        /// The shard elected another leader (the second node) before the first answered: whether the command took
        /// effect is unknown, but no answer is worth waiting for (a leader cut off from the others may never send
        /// it).
        case deposed(NodeID, by: NodeID)
        /// The leader answered with a failure.
        case failed(NodeID, String)
    }

    var shard: Int
    package var kind: Kind
    var waited: Duration

    /// Makes the value from its parts: the memberwise initializer, for the modules above this one.
    package init(shard: Int, kind: Kind, waited: Duration) {
        self.shard = shard
        self.kind = kind
        self.waited = waited
    }

    package var description: String {
        let seconds = Double(self.waited.components.seconds) + Double(self.waited.components.attoseconds) / 1e18
        let waited = String(Int(seconds.rounded()))
        switch self.kind {
        case .noLeader:
            return "Shard \(self.shard) has no leader the node could reach within \(waited) s (an election is "
                + "running, or too few of its replicas are up); nothing was applied. Retry the write in a moment."
        case .unreachable(let node):
            return "Node \(node.name), which leads shard \(self.shard), cannot be reached from this node; nothing "
                + "was applied. Retry the write in a moment."
        case .timedOut(let node):
            return "Node \(node.name), which leads shard \(self.shard), did not answer within \(waited) s; the write "
                + "may or may not have been applied. Read the data before retrying."
        case .connectionLost(let node):
            return "The connection to node \(node.name), which leads shard \(self.shard), was lost before it "
                + "answered; the write may or may not have been applied. Read the data before retrying."
        case .deposed(let node, let successor):
            return "Node \(node.name), which led shard \(self.shard), lost the leadership to \(successor.name) before "
                + "it answered; the write may or may not have been applied. Read the data before retrying."
        case .failed(let node, let message):
            return "Node \(node.name), which leads shard \(self.shard), refused the write: \(message)"
        }
    }
}
