import HearthCluster
import Testing

/// The next step toward a target replica set, as a transcript: learner, catch-up, promotion, demotion, removal.
@Suite struct RebalancePlannerTests {
    static func follower(
        _ node: NodeID, voter: Bool = false, lag: UInt64 = 0, state: RaftFollowerStatus.State = .replicate
    ) -> RaftFollowerStatus {
        RaftFollowerStatus(node: node, isVoter: voter, match: 10_000 - lag, lag: lag, state: state)
    }

    static func step(
        _ current: RaftMembership, _ target: RaftMembership, leader: NodeID = "n1",
        _ followers: [RaftFollowerStatus], keeping: Set<NodeID> = []
    ) -> RebalanceStep? {
        RebalancePlanner.nextStep(
            current: current, target: target, leader: leader, followers: followers, keeping: keeping)
    }

    /// n4 joins and takes n3's vote: learner, promotion once caught up, then n3 demoted.
    @Test func aNewMemberIsAddedCaughtUpPromotedThenTheOldVoterDemoted() {
        let target = RaftMembership(voters: ["n1", "n2", "n4"], learners: ["n3"])
        var current = RaftMembership(voters: ["n1", "n2", "n3"])
        let peers = [Self.follower("n2", voter: true), Self.follower("n3", voter: true)]
        #expect(Self.step(current, target, peers) == .change(.addLearner("n4")))
        current = RaftMembership(voters: ["n1", "n2", "n3"], learners: ["n4"])
        #expect(Self.step(current, target, peers + [Self.follower("n4", state: .snapshot)]) == nil)
        #expect(Self.step(current, target, peers + [Self.follower("n4", lag: 5_000)]) == nil)
        #expect(Self.step(current, target, peers + [Self.follower("n4", lag: 3)]) == .change(.addVoter("n4")))
        current = RaftMembership(voters: ["n1", "n2", "n3", "n4"])
        #expect(Self.step(current, target, peers + [Self.follower("n4", voter: true)]) == .change(.demoteVoter("n3")))
        current = RaftMembership(voters: ["n1", "n2", "n4"], learners: ["n3"])
        #expect(Self.step(current, target, peers) == nil)
    }

    /// A leaving member is demoted only after its replacement votes, then leaves the group.
    @Test func aLeavingMemberIsReplacedThenRemoved() {
        let target = RaftMembership(voters: ["n1", "n2", "n4"])
        var current = RaftMembership(voters: ["n1", "n2", "n3"], learners: ["n4"])
        let down = [Self.follower("n2", voter: true), Self.follower("n3", voter: true, state: .probe)]
        #expect(Self.step(current, target, down + [Self.follower("n4")]) == .change(.addVoter("n4")))
        current = RaftMembership(voters: ["n1", "n2", "n3", "n4"])
        #expect(Self.step(current, target, down + [Self.follower("n4", voter: true)]) == .change(.demoteVoter("n3")))
        current = RaftMembership(voters: ["n1", "n2", "n4"], learners: ["n3"])
        #expect(Self.step(current, target, down) == .change(.removeMember("n3")))
        #expect(Self.step(current, target, down, keeping: ["n3"]) == nil)
    }

    /// A leader that must give up its vote hands leadership to a caught-up target voter first.
    @Test func aLeaderToBeDemotedTransfersLeadership() {
        let target = RaftMembership(voters: ["n2", "n3", "n4"], learners: ["n1"])
        let current = RaftMembership(voters: ["n1", "n2", "n3", "n4"])
        let peers = [
            Self.follower("n2", voter: true, lag: 2), Self.follower("n3", voter: true),
            Self.follower("n4", voter: true, state: .probe),
        ]
        #expect(Self.step(current, target, peers) == .transferLeadership(to: "n3"))
        let nobody = peers.map { Self.follower($0.node, voter: true, state: .probe) }
        #expect(Self.step(current, target, nobody) == nil)
    }

    /// Demotion waits while a target voter has not caught up, so the group never has fewer voters than its target.
    @Test func demotionWaitsForEveryTargetVoter() {
        let target = RaftMembership(voters: ["n1", "n4", "n5"])
        let current = RaftMembership(voters: ["n1", "n2", "n3", "n4"], learners: ["n5"])
        let peers = [
            Self.follower("n2", voter: true), Self.follower("n3", voter: true), Self.follower("n4", voter: true),
            Self.follower("n5", state: .probe),
        ]
        #expect(Self.step(current, target, peers) == nil)
    }

    @Test func aSettledGroupNeedsNothing() {
        let membership = RaftMembership(voters: ["n1", "n2", "n3"], learners: ["n4"])
        #expect(Self.step(membership, membership, [Self.follower("n2", voter: true)]) == nil)
    }
}
