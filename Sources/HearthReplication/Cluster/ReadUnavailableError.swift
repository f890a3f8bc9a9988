import HearthDatabase

/// A read this cluster node did not serve because it could not be sure of showing every write acknowledged before
/// it (anywhere in the cluster): a possibly stale answer is never given instead. REST answers 503 with the message,
/// the realtime protocol an `unavailable` status (the front ends treat it as a `WriteUnavailableError`).
struct ReadUnavailableError: Error, Sendable, CustomStringConvertible {
    enum Reason: Sendable, Equatable {
        /// The shard's group had no leader this node could reach.
        case noLeader
        /// The leader did not confirm with a majority that it still leads.
        case leaderUnconfirmed
        /// This node did not apply the shard's log through the read index in time.
        case catchingUp
        /// This node is shutting down.
        case stopping
    }

    var shard: Int
    var reason: Reason
    var waited: Duration

    var description: String {
        let seconds = self.waited.components.seconds
        switch self.reason {
        case .noLeader:
            return "The read was not served: shard \(self.shard) has had no leader this node can reach for "
                + "\(seconds) s (an election is running, or this node is cut off from the others). Retry shortly, or "
                + "read through another node."
        case .leaderUnconfirmed:
            return "The read was not served: the leader of shard \(self.shard) did not confirm within \(seconds) s "
                + "that it still leads with a majority, so this node cannot be sure it has every acknowledged write. "
                + "Retry shortly, or read through another node."
        case .catchingUp:
            return "The read was not served: this node did not catch up with shard \(self.shard) within \(seconds) s "
                + "and might have answered with old data. Retry shortly, or read through another node."
        case .stopping:
            return "The read was not served: this node is shutting down. Read through another node."
        }
    }
}

extension ReadUnavailableError: WriteUnavailableError {}
