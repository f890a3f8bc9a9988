import HearthCluster
import Testing

/// Thesis §4.1–§4.2: one-at-a-time membership changes, learners that catch up before promotion, and a leader that
/// removes itself.
@Suite struct RaftMembershipTests {
    let n1: NodeID = "n1"
    let n2: NodeID = "n2"
    let n3: NodeID = "n3"
    let n4: NodeID = "n4"

    /// A learner added to a running group receives the whole log, then becomes a voter when promoted.
    @Test func learnerCatchesUpAndIsPromoted() throws {
        var harness = try RaftHarness.elected(voters: [n1, n2, n3])
        _ = harness.propose(n1, "before")
        try harness.add(n4, state: .joining)
        guard case .accepted = harness.with(n1, { $0.proposeConfigurationChange(.addLearner(n4)) }) else {
            Issue.record("addLearner was refused")
            return
        }
        harness.deliverAll()
        harness.tickAll(times: 3)
        #expect(harness.node(n1).membership.learners == [n4])
        #expect(harness.commands(n4) == ["before"])
        let learner = harness.node(n1).followers.first { $0.node == n4 }
        #expect(learner?.isVoter == false)
        #expect(learner?.lag == 0)
        #expect(learner?.state == .replicate)
        #expect(harness.node(n2).followers.isEmpty)
        #expect(harness.node(n4).role == .follower)
        let promote = harness.with(n1) { $0.proposeConfigurationChange(.addVoter(n4)) }
        guard case .accepted = promote else {
            Issue.record("promotion was refused: \(promote)")
            return
        }
        harness.deliverAll()
        harness.tickAll(times: 2)
        for id in [n1, n2, n3, n4] {
            #expect(harness.node(id).membership == RaftMembership(voters: [n1, n2, n3, n4]))
        }
        #expect(harness.node(n1).membership.quorum == 3)
    }

    /// Only one change may be uncommitted at a time.
    @Test func secondChangeWaitsForTheFirstToCommit() throws {
        var harness = try RaftHarness.elected(voters: [n1, n2, n3])
        harness.isolate(n2)
        harness.isolate(n3)
        let first = harness.with(n1) { $0.proposeConfigurationChange(.addLearner(n4)) }
        guard case .accepted(let index, _) = first else {
            Issue.record("first change refused: \(first)")
            return
        }
        let second = harness.with(n1) { $0.proposeConfigurationChange(.removeMember(n3)) }
        #expect(second == .rejected(.configurationChangePending(index: index)))
        let invalid = harness.with(n2) { $0.proposeConfigurationChange(.removeMember(n3)) }
        #expect(invalid == .notLeader(leaderHint: n1))
    }

    /// Invalid changes are refused with a reason.
    @Test func invalidChangesAreRefused() throws {
        var harness = try RaftHarness.elected(voters: [n1, n2, n3])
        #expect(throws: RaftError.self) { try RaftMembership(voters: [n1]).applying(.removeMember(n1)) }
        let duplicate = harness.with(n1) { $0.proposeConfigurationChange(.addVoter(n2)) }
        guard case .rejected(.invalidConfigurationChange) = duplicate else {
            Issue.record("adding an existing voter was not refused: \(duplicate)")
            return
        }
    }

    /// A leader that removes itself keeps leading until the change commits, then steps down; the others elect a
    /// new leader among themselves.
    @Test func leaderRemovingItselfStepsDown() throws {
        var harness = try RaftHarness.elected(voters: [n1, n2, n3])
        let change = harness.with(n1) { $0.proposeConfigurationChange(.removeMember(n1)) }
        guard case .accepted = change else {
            Issue.record("removal refused: \(change)")
            return
        }
        harness.deliverAll()
        #expect(harness.node(n1).role == .follower)
        harness.tickAll(times: 40)
        let leaders = harness.leaders
        #expect(leaders.count == 1)
        #expect(!leaders.contains(n1))
        #expect(harness.node(n2).membership.voters == [n2, n3])
    }

    /// A demoted voter stays in the group as a learner: it no longer counts for the quorum but still gets the log;
    /// the last voter cannot be demoted.
    @Test func demotedVoterKeepsReceivingTheLog() throws {
        var harness = try RaftHarness.elected(voters: [n1, n2, n3])
        let change = harness.with(n1) { $0.proposeConfigurationChange(.demoteVoter(n3)) }
        guard case .accepted = change else {
            Issue.record("demotion refused: \(change)")
            return
        }
        harness.deliverAll()
        harness.tickAll(times: 3)
        #expect(harness.node(n1).membership == RaftMembership(voters: [n1, n2], learners: [n3]))
        _ = harness.propose(n1, "after")
        harness.deliverAll()
        harness.tickAll(times: 3)
        #expect(harness.commands(n3) == ["after"])
        #expect(throws: RaftError.self) { try RaftMembership(voters: [n1], learners: [n2]).applying(.demoteVoter(n1)) }
        #expect(throws: RaftError.self) { try RaftMembership(voters: [n1, n2]).applying(.demoteVoter(n3)) }
    }
}
