import Testing

@testable import HearthCluster

@Suite struct ShardPlacementTests {
    private static func members(_ count: Int) -> [NodeID] {
        (1...count).map { NodeID("n\($0)") }
    }

    /// How many (shard, node) replica assignments of `after` are not in `before`.
    private static func movedReplicas(from before: ShardPlacement, to after: ShardPlacement) -> Int {
        zip(before.replicas, after.replicas).reduce(0) { moved, pair in
            moved + Set(pair.1).subtracting(pair.0).count
        }
    }

    private static let sizes = [(3, 16), (3, 64), (5, 16), (5, 64), (7, 16), (7, 64)]

    /// The same inputs give the same placement, whatever the order the members are listed in, and the weights are
    /// pinned so that no toolchain or process can change them.
    @Test func isDeterministic() {
        let a = ShardPlacement(members: Self.members(5), shardCount: 64, replicationFactor: 3)
        let b = ShardPlacement(members: Self.members(5).reversed(), shardCount: 64, replicationFactor: 3)
        #expect(a == b)
        #expect(RendezvousWeight.of("n1", shard: 0) == RendezvousWeight.of("n1", shard: 0))
        #expect(RendezvousWeight.of("n1", shard: 0) != RendezvousWeight.of("n1", shard: 0, purpose: .leader))
        #expect(RendezvousWeight.of("n1", shard: 0) == 0xe7b7_69a5_0b9a_43e2)
    }

    @Test(arguments: sizes) func everyShardGetsDistinctReplicasAndALeaderAmongThem(nodes: Int, shards: Int) {
        let placement = ShardPlacement(members: Self.members(nodes), shardCount: shards, replicationFactor: 3)
        #expect(placement.shardCount == shards)
        for shard in 0..<shards {
            #expect(placement.replicas[shard].count == 3)
            #expect(Set(placement.replicas[shard]).count == 3)
            #expect(placement.replicas[shard].contains(placement.preferredLeaders[shard]))
        }
    }

    /// Replica and leader counts are within one of each other (so within one of the even share).
    @Test(arguments: sizes) func replicasAndLeadersSpreadEvenly(nodes: Int, shards: Int) {
        let placement = ShardPlacement(members: Self.members(nodes), shardCount: shards, replicationFactor: 3)
        let replicaCounts = placement.members.map { placement.shards(replicatedOn: $0).count }
        let leaderCounts = placement.members.map { placement.shards(ledBy: $0).count }
        #expect(replicaCounts.reduce(0, +) == shards * 3)
        #expect(leaderCounts.reduce(0, +) == shards)
        #expect((replicaCounts.max() ?? 0) - (replicaCounts.min() ?? 0) <= 1, "\(replicaCounts)")
        #expect((leaderCounts.max() ?? 0) - (leaderCounts.min() ?? 0) <= 1, "\(leaderCounts)")
    }

    /// Adding a node moves close to the minimum (the new node's even share); removing one moves close to the
    /// replicas it held. Bound: 1.5 times the minimum, plus 2.
    @Test(arguments: sizes) func membershipChangesMoveFewReplicas(nodes: Int, shards: Int) {
        let members = Self.members(nodes)
        let before = ShardPlacement(members: members, shardCount: shards, replicationFactor: 3)
        let grown = ShardPlacement(
            members: members + [NodeID("n\(nodes + 1)")], shardCount: shards, replicationFactor: 3)
        let minimumOnAdd = Double(shards * 3) / Double(nodes + 1)
        let movedOnAdd = Self.movedReplicas(from: before, to: grown)
        #expect(Double(movedOnAdd) <= minimumOnAdd * 1.5 + 2, "moved \(movedOnAdd), minimum \(minimumOnAdd)")

        guard let removed = members.last else { return }
        let shrunk = ShardPlacement(members: members.dropLast(), shardCount: shards, replicationFactor: 3)
        let minimumOnRemove = Double(before.shards(replicatedOn: removed).count)
        let movedOnRemove = Self.movedReplicas(from: before, to: shrunk)
        if nodes > 3 {
            #expect(Double(movedOnRemove) <= minimumOnRemove * 1.5 + 2, "moved \(movedOnRemove)")
        } else {
            #expect(movedOnRemove == 0, "three replicas on two nodes keep the two survivors")
        }
    }

    /// Fewer members than the replication factor: every member holds every shard.
    @Test func capsTheReplicationFactorAtTheMemberCount() {
        let placement = ShardPlacement(members: ["a", "b"], shardCount: 8, replicationFactor: 3)
        #expect(placement.replicas.allSatisfy { Set($0) == ["a", "b"] })
        #expect(placement.shards(ledBy: "a").count == 4)
        let empty = ShardPlacement(members: [], shardCount: 4, replicationFactor: 3)
        #expect(empty.replicas == [[], [], [], []])
        #expect(empty.preferredLeaders.isEmpty)
    }
}
