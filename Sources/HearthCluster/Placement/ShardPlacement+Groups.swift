extension ShardPlacement {
    /// Each shard's Raft group as it is founded: the shard's replicas are its voters and every other member is a
    /// learner, so every node applies every shard's committed entries (each node's read view holds the whole
    /// database) while only `replicationFactor` of them take part in elections and commit.
    public var foundingGroups: [RaftGroupID: RaftMembership] {
        var groups: [RaftGroupID: RaftMembership] = [:]
        for (shard, voters) in self.replicas.enumerated() {
            let learners = self.members.filter { !voters.contains($0) }
            groups[RaftGroupID(UInt32(shard))] = RaftMembership(voters: voters, learners: learners)
        }
        return groups
    }
}
