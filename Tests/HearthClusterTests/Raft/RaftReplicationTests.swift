import HearthCluster
import Testing

/// Raft paper §5.3 and §5.4.2: replication, conflict truncation, the commit rule, batching and pipelining.
@Suite struct RaftReplicationTests {
    let n1: NodeID = "n1"
    let n2: NodeID = "n2"
    let n3: NodeID = "n3"

    /// §5.3: an accepted proposal reaches every follower's log and is applied everywhere once committed.
    @Test func replicatesAndAppliesEverywhere() throws {
        var harness = try RaftHarness(voters: [n1, n2, n3])
        harness.campaign(n1)
        for text in ["a", "b", "c"] { _ = harness.propose(n1, text) }
        harness.deliverAll()
        harness.tickAll()
        for id in [n1, n2, n3] { #expect(harness.commands(id) == ["a", "b", "c"]) }
        #expect(harness.propose(n2, "x") == .notLeader(leaderHint: n1))
    }

    /// §5.3 / Figure 7: a follower's conflicting uncommitted suffix is truncated, and the Ready says from where.
    @Test func followerTruncatesConflictingSuffix() throws {
        var harness = try RaftHarness(voters: [n1, n2, n3])
        let membership = RaftMembership(voters: [n1, n2, n3])
        func state(term: UInt64, _ entries: [(UInt64, String)]) -> RaftPersistentState {
            RaftPersistentState(
                hardState: RaftHardState(term: term),
                snapshot: RaftSnapshotMetadata(index: 0, term: 0, membership: membership),
                entries: entries.enumerated().map { offset, pair in
                    RaftEntry(index: UInt64(offset + 1), term: pair.0, payload: .command(Array(pair.1.utf8)))
                }
            )
        }
        try harness.add(n1, state: state(term: 3, [(1, "a"), (3, "leader")]), seed: 1)
        try harness.add(n2, state: state(term: 3, [(1, "a"), (2, "stale"), (2, "stale2")]), seed: 2)
        try harness.add(n3, state: state(term: 3, []), seed: 3)
        harness.campaign(n1)
        #expect(harness.leaders == [n1])
        let follower = harness.node(n2)
        #expect(follower.log.entry(at: 2)?.term == 3)
        #expect(follower.log.entry(at: 3)?.payload == .noop)
        #expect(harness.storage[n2]?.entries.map(\.term) == [1, 3, 4])
        harness.tickAll()
        #expect(harness.commands(n2) == ["a", "leader"])
    }

    /// §5.4.2 / Figure 8: an entry of an earlier term is not committed by counting replicas; it commits only
    /// with an entry of the leader's own term.
    @Test func oldTermEntriesCommitOnlyWithCurrentTermEntry() throws {
        var leader = try self.candidate(entries: [RaftEntry(index: 1, term: 1, payload: .command([1]))])
        func reply(_ term: UInt64, _ kind: RaftMessage.Kind) {
            leader.step(RaftMessage(group: RaftHarness.group, from: n2, to: n1, term: term, kind: kind))
        }
        reply(2, .preVoteResponse(granted: true))
        #expect(leader.role == .candidate)
        reply(2, .voteResponse(granted: true))
        #expect(leader.role == .leader)
        #expect(leader.log.lastIndex == 2)
        // The shell persists the leader's no-op; only then does the leader's own log count.
        if let ready = leader.ready() { leader.advance(ready) }
        reply(2, .appendAccepted(matchIndex: 1))
        #expect(leader.log.committed == 0)
        reply(2, .appendAccepted(matchIndex: 2))
        #expect(leader.log.committed == 2)
    }

    /// Indexes a follower sends past the leader's log (up to `UInt64.max`) change nothing and never trap: an
    /// acceptance cannot match entries the leader does not have, and a rejection's hint is read as the log's end.
    @Test func indexesPastTheLeadersLogChangeNothing() throws {
        var leader = try self.candidate()
        func reply(_ kind: RaftMessage.Kind) {
            leader.step(RaftMessage(group: RaftHarness.group, from: n2, to: n1, term: 2, kind: kind))
        }
        reply(.preVoteResponse(granted: true))
        reply(.voteResponse(granted: true))
        if let ready = leader.ready() { leader.advance(ready) }
        #expect(leader.role == .leader && leader.log.lastIndex == 1)
        reply(.appendAccepted(matchIndex: .max))
        reply(.appendRejected(rejectedIndex: 1, hintIndex: .max, hintTerm: 0))
        reply(.appendRejected(rejectedIndex: .max, hintIndex: .max, hintTerm: .max))
        #expect(leader.log.committed == 0, "no quorum came from the out-of-range answers")
        reply(.appendAccepted(matchIndex: 1))
        #expect(leader.log.committed == 1, "the follower's real answer still counts")
    }

    /// A leader's appends may reach its followers before its own write is durable, so its own log counts toward a
    /// commit only once persisted: two followers make a quorum of three without it, one does not.
    @Test func theLeadersOwnLogCountsOnlyOncePersisted() throws {
        var leader = try self.candidate()
        func reply(from peer: NodeID, _ kind: RaftMessage.Kind) {
            leader.step(RaftMessage(group: RaftHarness.group, from: peer, to: n1, term: 2, kind: kind))
        }
        reply(from: n2, .preVoteResponse(granted: true))
        reply(from: n2, .voteResponse(granted: true))
        #expect(leader.role == .leader && leader.log.lastIndex == 1)
        let unpersisted = try #require(leader.ready())
        #expect(!unpersisted.messagesBeforePersisting.isEmpty, "the no-op's appends may go before the write")
        #expect(unpersisted.messagesBeforePersisting.allSatisfy { if case .append = $0.kind { true } else { false } })
        reply(from: n2, .appendAccepted(matchIndex: 1))
        #expect(leader.log.committed == 0, "one follower and an unpersisted leader are not a quorum")
        leader.advance(unpersisted)
        #expect(leader.log.committed == 1, "the leader's write completed the quorum")
        let next = try #require(leader.ready())
        #expect(next.committedEntries.map(\.index) == [1])
        #expect(next.messages.contains { $0.to == n2 }, "the new commit index goes out")
    }

    /// Appends are capped by entry count and bytes, and pipelined up to the inflight window.
    @Test func batchesAndPipelinesAppends() throws {
        let configuration = try RaftConfiguration(maxAppendBytes: 1 << 20, maxAppendEntries: 2, maxInflightAppends: 3)
        var harness = try RaftHarness(voters: [n1, n2], configuration: configuration)
        harness.campaign(n1)
        harness.sent = []
        harness.cut.insert("\(n2)>\(n1)")
        for text in ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"] { _ = harness.propose(n1, text) }
        let appends = harness.sent.compactMap { message -> [RaftEntry]? in
            if case .append(_, _, let entries, _) = message.kind, message.to == n2 { return entries }
            return nil
        }
        #expect(appends.count == 3)
        #expect(appends.allSatisfy { $0.count <= 2 })
        harness.cut = []
        harness.deliverAll()
        harness.tickAll(times: 3)
        #expect(harness.commands(n2) == ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"])
    }

    /// A follower that lost appends catches up through rejection hints and heartbeats.
    @Test func laggingFollowerCatchesUp() throws {
        var harness = try RaftHarness(voters: [n1, n2, n3])
        harness.campaign(n1)
        harness.isolate(n3)
        for index in 0..<20 { _ = harness.propose(n1, "v\(index)") }
        harness.deliverAll()
        harness.heal()
        harness.tickAll(times: 5)
        #expect(harness.commands(n3) == harness.commands(n1))
        #expect(harness.commands(n3).count == 20)
    }

    /// A restarted node keeps what it persisted: term, vote, log and commit.
    @Test func restartKeepsPersistedState() throws {
        var harness = try RaftHarness(voters: [n1, n2, n3])
        harness.campaign(n1)
        _ = harness.propose(n1, "kept")
        harness.deliverAll()
        harness.tickAll()
        let persisted = try #require(harness.storage[n2])
        let restarted = try RaftNode(
            id: n2,
            group: RaftHarness.group,
            configuration: harness.configuration,
            restoring: persisted,
            seed: 5
        )
        #expect(restarted.term == harness.node(n2).term)
        #expect(restarted.log.lastIndex == harness.node(n2).log.lastIndex)
        #expect(restarted.log.committed == harness.node(n2).log.committed)
        let ready = try #require(restarted.ready())
        #expect(ready.committedEntries.count == Int(restarted.log.committed))
    }

    /// A persisted state with a gap or a commit beyond the log is refused with a typed error.
    @Test func refusesInconsistentPersistedState() throws {
        var state = RaftPersistentState.bootstrap(voters: [n1])
        state.entries = [RaftEntry(index: 2, term: 1, payload: .noop)]
        #expect(throws: RaftError.self) {
            try RaftNode(
                id: n1, group: RaftHarness.group, configuration: RaftConfiguration(), restoring: state, seed: 1)
        }
        state.entries = []
        state.hardState.commit = 3
        #expect(throws: RaftError.self) {
            try RaftNode(
                id: n1, group: RaftHarness.group, configuration: RaftConfiguration(), restoring: state, seed: 1)
        }
    }

    @Test func configurationIsValidated() {
        #expect(throws: RaftError.self) { try RaftConfiguration(electionTicks: 2, heartbeatTicks: 2) }
        #expect(throws: RaftError.self) { try RaftConfiguration(maxInflightAppends: 0) }
        #expect(throws: Never.self) { try RaftConfiguration(electionTicks: 20, heartbeatTicks: 2) }
    }

    /// Node n1 of a fresh three-voter group at term 1 holding `entries`, ticked until it campaigns (pre-vote first),
    /// so that a test can answer for its peers.
    /// A follower far behind commits only what it holds, but keeps the highest commit its leader told it of: an
    /// append's (the leader's own, even one the follower must reject) and a heartbeat's (clipped to what it holds), so
    /// a restarted member can tell how far it still has to catch up.
    @Test func aFollowerBehindKnowsItsLeadersCommit() throws {
        let membership = RaftMembership(voters: [n1, n2, n3])
        let state = RaftPersistentState(
            hardState: RaftHardState(term: 2),
            snapshot: RaftSnapshotMetadata(index: 0, term: 0, membership: membership),
            entries: [RaftEntry(index: 1, term: 1, payload: .command([1]))])
        var follower = try RaftNode(
            id: n2, group: RaftHarness.group, configuration: RaftConfiguration(), restoring: state, seed: 2)
        func hear(_ kind: RaftMessage.Kind) {
            follower.step(RaftMessage(group: RaftHarness.group, from: n1, to: n2, term: 2, kind: kind))
        }
        hear(.heartbeat(commit: 1, context: []))
        #expect(follower.log.committed == 1 && follower.leaderCommit == 1)
        hear(.append(prevIndex: 40, prevTerm: 2, entries: [], commit: 50))
        #expect(follower.log.committed == 1, "it holds nothing past 1")
        #expect(follower.leaderCommit == 50)
        hear(.heartbeat(commit: 1, context: []))
        #expect(follower.leaderCommit == 50, "a clipped heartbeat does not lower it")
        hear(.append(prevIndex: 1, prevTerm: 1, entries: [RaftEntry(index: 2, term: 2, payload: .noop)], commit: 60))
        #expect(follower.log.committed == 2 && follower.leaderCommit == 60)
    }

    private func candidate(entries: [RaftEntry] = []) throws -> RaftNode {
        let membership = RaftMembership(voters: [n1, n2, n3])
        let state = RaftPersistentState(
            hardState: RaftHardState(term: 1),
            snapshot: RaftSnapshotMetadata(index: 0, term: 0, membership: membership), entries: entries)
        var node = try RaftNode(
            id: n1, group: RaftHarness.group, configuration: RaftConfiguration(), restoring: state, seed: 1)
        while node.role == .follower { node.tick() }
        return node
    }
}
