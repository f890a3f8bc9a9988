/// Which nodes hold each shard, and which of them should lead it: a pure function of the member names, the shard
/// count and the replication factor, so every node computes the same answer without asking anyone.
///
/// Replicas are chosen by rendezvous (highest-random-weight) hashing, taken greedily from the highest weight down
/// with each node capped at its even share, then evened out so that no two nodes' replica counts differ by more than
/// one. Because a shard's replicas are mostly its highest-weight nodes, adding or removing one node moves only
/// about `1/n` of the replicas. Each shard's preferred leader is one of its replicas, balanced so that leader counts
/// also differ by at most one wherever the replica sets allow it.
///
/// The replication factor is capped at the number of members (a three-way shard on a two-node cluster has two
/// replicas). O(S·n·log(S·n)) for S shards over n members; meant for hundreds of shards, computed on membership
/// changes.
public struct ShardPlacement: Sendable, Hashable {
    /// The members placed over, sorted.
    public let members: [NodeID]
    /// The replicas of shard `i`, highest rendezvous weight first.
    public let replicas: [[NodeID]]
    /// The preferred leader of shard `i`, one of `replicas[i]`.
    public let preferredLeaders: [NodeID]

    /// Places `shardCount` shards with `replicationFactor` replicas each over `members` (duplicates ignored).
    ///
    /// - Precondition: `shardCount >= 0`, `replicationFactor >= 1`.
    public init(members: some Sequence<NodeID>, shardCount: Int, replicationFactor: Int) {
        precondition(shardCount >= 0, "ShardPlacement needs a shard count of at least 0, got \(shardCount)")
        precondition(replicationFactor >= 1, "ShardPlacement needs a replication factor of at least 1")
        let members = Array(Set(members)).sorted()
        self.members = members
        guard !members.isEmpty else {
            self.replicas = Array(repeating: [], count: shardCount)
            self.preferredLeaders = []
            return
        }
        var replicas = Self.assignReplicas(
            members: members,
            shardCount: shardCount,
            replicationFactor: min(replicationFactor, members.count)
        )
        for shard in replicas.indices {
            replicas[shard].sort { Self.ranks($0, above: $1, shard: shard, purpose: .replica) }
        }
        self.replicas = replicas
        self.preferredLeaders = Self.assignLeaders(members: members, replicas: replicas)
    }

    /// The number of shards placed.
    public var shardCount: Int { self.replicas.count }

    /// The shards `node` holds a replica of, ascending.
    public func shards(replicatedOn node: NodeID) -> [Int] {
        self.replicas.indices.filter { self.replicas[$0].contains(node) }
    }

    /// The shards `node` should lead, ascending.
    public func shards(ledBy node: NodeID) -> [Int] {
        self.preferredLeaders.indices.filter { self.preferredLeaders[$0] == node }
    }

    /// Whether `a` outranks `b` for `shard`: higher weight first, then the lower name.
    static func ranks(_ a: NodeID, above b: NodeID, shard: Int, purpose: RendezvousWeight.Purpose) -> Bool {
        let weightA = RendezvousWeight.of(a, shard: shard, purpose: purpose)
        let weightB = RendezvousWeight.of(b, shard: shard, purpose: purpose)
        return weightA != weightB ? weightA > weightB : a < b
    }
}
