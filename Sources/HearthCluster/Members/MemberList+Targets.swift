extension RaftGroupID {
    /// The group whose log holds the member list (`MemberList`), beside the shards' groups `0 ..< shards`.
    public static let members = RaftGroupID(UInt32.max)
}

/// Where every Raft group's replica set should be, given the member list: what a cluster is founded with, and what
/// each group's leader moves its replica set toward (`RebalancePlanner`) after a member joins or leaves.
extension MemberList {
    /// The shard placement over the active members.
    public func placement(shardCount: Int) -> ShardPlacement {
        ShardPlacement(members: self.active, shardCount: shardCount, replicationFactor: self.replicationFactor)
    }

    /// The voters of the member-list group: the `replicationFactor` active members of highest rendezvous weight for
    /// a number no shard uses, so the list is replicated like a shard and survives what a shard survives.
    public var memberGroupVoters: [NodeID] {
        let weight = { (node: NodeID) in RendezvousWeight.of(node, shard: Int(RaftGroupID.members.rawValue)) }
        let ranked = self.active.sorted { (weight($0), $1) > (weight($1), $0) }
        return Array(ranked.prefix(self.replicationFactor))
    }

    /// Each group's target replica set: for a shard, its placed replicas vote and every other active member learns
    /// (so every node applies every shard, as the read views need); for the member-list group, `memberGroupVoters`
    /// vote and every other member — leaving ones too, so they see their own removal — learns. A removed member is
    /// in no target.
    public func targets(shardCount: Int) -> [RaftGroupID: RaftMembership] {
        let active = self.active
        var targets: [RaftGroupID: RaftMembership] = [:]
        for (shard, voters) in self.placement(shardCount: shardCount).replicas.enumerated() {
            targets[RaftGroupID(UInt32(shard))] = RaftMembership(voters: voters, learners: active)
        }
        targets[.members] = RaftMembership(voters: self.memberGroupVoters, learners: self.members.map(\.id))
        return targets
    }
}
