import HearthCluster
import Testing

/// Raft paper §5.2 and §5.4.1, thesis §9.6 (pre-vote) and §6.2 (check-quorum).
@Suite struct RaftElectionTests {
    let n1: NodeID = "n1"
    let n2: NodeID = "n2"
    let n3: NodeID = "n3"

    /// §5.2: a node that times out wins a majority and every other node follows it in that term.
    @Test func electsOneLeaderPerTerm() throws {
        var harness = try RaftHarness(voters: [n1, n2, n3])
        harness.campaign(n1)
        #expect(harness.leaders == [n1])
        for id in [n2, n3] {
            #expect(harness.node(id).role == .follower)
            #expect(harness.node(id).leader == n1)
            #expect(harness.node(id).term == harness.node(n1).term)
        }
        #expect(harness.node(n1).term == 1)
    }

    /// §5.2 / Figure 2: a vote is persisted in the same Ready that carries the grant, and never given twice in one
    /// term.
    @Test func votesArePersistedAndNotGrantedTwice() throws {
        var harness = try RaftHarness(voters: [n1, n2, n3])
        let group = RaftHarness.group
        var voter = harness.node(n2)
        voter.step(
            RaftMessage(
                group: group, from: n1, to: n2, term: 1, kind: .vote(lastIndex: 0, lastTerm: 0, transfer: false))
        )
        let ready = try #require(voter.ready())
        #expect(ready.hardState?.votedFor == n1)
        #expect(ready.hardState?.term == 1)
        #expect(ready.messages.map(\.kind) == [.voteResponse(granted: true)])
        voter.advance(ready)
        voter.step(
            RaftMessage(
                group: group, from: n3, to: n2, term: 1, kind: .vote(lastIndex: 5, lastTerm: 1, transfer: false))
        )
        let second = try #require(voter.ready())
        #expect(second.hardState == nil)
        #expect(second.messages.map(\.kind) == [.voteResponse(granted: false)])
        harness.nodes[n2] = voter
    }

    /// §5.4.1: a voter refuses a candidate whose log is less up to date than its own.
    @Test func refusesCandidateWithStaleLog() throws {
        let harness = try RaftHarness(voters: [n1, n2, n3])
        var voter = harness.node(n2)
        voter.step(
            RaftMessage(
                group: RaftHarness.group,
                from: n1,
                to: n2,
                term: 3,
                kind: .append(
                    prevIndex: 0,
                    prevTerm: 0,
                    entries: [RaftEntry(index: 1, term: 3, payload: .noop)],
                    commit: 0
                )
            )
        )
        voter.advance(try #require(voter.ready()))
        voter.step(
            RaftMessage(
                group: RaftHarness.group, from: n3, to: n2, term: 4,
                kind: .vote(lastIndex: 9, lastTerm: 2, transfer: true))
        )
        let ready = try #require(voter.ready())
        #expect(ready.messages.map(\.kind) == [.voteResponse(granted: false)])
        #expect(voter.votedFor == nil)
    }

    /// §5.4.2 / §8: a new leader's first entry is a no-op of its own term.
    @Test func leaderAppendsNoopAtStartOfTerm() throws {
        var harness = try RaftHarness(voters: [n1, n2, n3])
        harness.campaign(n1)
        let last = try #require(harness.node(n1).log.entry(at: harness.node(n1).log.lastIndex))
        #expect(last.payload == .noop)
        #expect(last.term == harness.node(n1).term)
        #expect(harness.node(n2).log.committed == last.index)
    }

    /// Thesis §9.6: a partitioned node keeps its term while it pre-votes, so rejoining does not depose the leader.
    @Test func preVoteDoesNotDisruptAStableLeader() throws {
        var harness = try RaftHarness(voters: [n1, n2, n3])
        harness.campaign(n1)
        let term = harness.node(n1).term
        harness.isolate(n3)
        for _ in 0..<50 {
            harness.with(n3) { $0.tick() }
            harness.with(n1) { $0.tick() }
            harness.deliverAll()
        }
        #expect(harness.node(n3).term == term)
        harness.heal()
        harness.tickAll(times: 30)
        #expect(harness.leaders == [n1])
        #expect(harness.node(n1).term == term)
        #expect(harness.node(n3).leader == n1)
    }

    /// Thesis §6.2: a leader that hears from no quorum for an election timeout steps down.
    @Test func checkQuorumStepsDownAnIsolatedLeader() throws {
        var harness = try RaftHarness(voters: [n1, n2, n3])
        harness.campaign(n1)
        harness.isolate(n1)
        for _ in 0..<(2 * harness.configuration.electionTicks) { harness.with(n1) { $0.tick() } }
        #expect(harness.node(n1).role == .follower)
        #expect(harness.node(n1).leader == nil)
    }

    /// Thesis §4.2.1: learners never campaign, and a candidate does not count their votes.
    @Test func learnersDoNotVote() throws {
        var harness = try RaftHarness(voters: [n1, n2], learners: [n3])
        for _ in 0..<100 { harness.with(n3) { $0.tick() } }
        #expect(harness.node(n3).role == .follower)
        #expect(harness.inbox.isEmpty)
        harness.isolate(n2)
        harness.campaign(n1)
        #expect(harness.node(n1).role == .preCandidate)
        #expect(!harness.sent.contains { $0.to == n3 })
        harness.with(n1) {
            $0.step(
                RaftMessage(group: RaftHarness.group, from: n3, to: n1, term: 1, kind: .preVoteResponse(granted: true)))
        }
        #expect(harness.node(n1).role == .preCandidate)
    }

    /// Election timeouts are randomized in [election, 2 × election) ticks, and differ between seeds.
    @Test func electionTimeoutsAreRandomized() throws {
        var ticksToCampaign: Set<Int> = []
        for seed in 1...20 {
            var node = try RaftNode(
                id: n1,
                group: RaftHarness.group,
                configuration: RaftConfiguration(),
                restoring: .bootstrap(voters: [n1, n2, n3]),
                seed: UInt64(seed)
            )
            var ticks = 0
            while node.role == .follower {
                node.tick()
                ticks += 1
            }
            #expect((10..<20).contains(ticks))
            ticksToCampaign.insert(ticks)
        }
        #expect(ticksToCampaign.count > 3)
    }

    /// A single-voter group elects itself and commits alone.
    @Test func singleVoterLeadsAlone() throws {
        var harness = try RaftHarness(voters: [n1])
        harness.campaign(n1)
        #expect(harness.leaders == [n1])
        #expect(harness.propose(n1, "x") == .accepted(index: 2, term: 1))
        harness.drainAll()
        #expect(harness.commands(n1) == ["x"])
    }
}
