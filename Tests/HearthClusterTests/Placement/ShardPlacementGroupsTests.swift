import HearthCluster
import Testing

@Suite struct ShardPlacementGroupsTests {
    @Test func replicasVoteAndEveryOtherMemberLearns() throws {
        let members: [NodeID] = ["n1", "n2", "n3", "n4", "n5"]
        let placement = ShardPlacement(members: members, shardCount: 16, replicationFactor: 3)
        let groups = placement.foundingGroups
        #expect(groups.count == 16)
        for shard in 0..<16 {
            let membership = try #require(groups[RaftGroupID(UInt32(shard))])
            #expect(Set(membership.voters) == Set(placement.replicas[shard]))
            #expect(membership.voters.count == 3)
            #expect(Set(membership.voters).union(membership.learners) == Set(members))
            #expect(Set(membership.voters).isDisjoint(with: membership.learners))
        }
    }

    @Test func aSmallClusterHasNoLearners() {
        let placement = ShardPlacement(members: ["n1", "n2", "n3"], shardCount: 4, replicationFactor: 3)
        #expect(placement.foundingGroups.values.allSatisfy { $0.learners.isEmpty && $0.voters.count == 3 })
    }
}
