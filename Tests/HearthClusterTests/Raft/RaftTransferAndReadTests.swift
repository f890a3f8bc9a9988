import HearthCluster
import Testing

/// Thesis §3.10 (leadership transfer), §6.4 (read index) and §5 snapshots for lagging followers.
@Suite struct RaftTransferAndReadTests {
    let n1: NodeID = "n1"
    let n2: NodeID = "n2"
    let n3: NodeID = "n3"

    /// The target is brought up to date, told to time out, and wins the next term at once.
    @Test func transfersLeadership() throws {
        var harness = try RaftHarness.elected(voters: [n1, n2, n3])
        let term = harness.node(n1).term
        harness.isolate(n2)
        _ = harness.propose(n1, "catch me up")
        harness.deliverAll()
        harness.heal()
        try harness.with(n1) { try $0.transferLeadership(to: n2) }
        #expect(harness.propose(n1, "during") == .rejected(.transferringLeadership(to: n2)))
        harness.deliverAll()
        #expect(harness.leaders == [n2])
        #expect(harness.node(n2).term == term + 1)
        #expect(harness.node(n2).log.entries.contains { $0.payload == .command(Array("catch me up".utf8)) })
        #expect(throws: RaftError.notLeader(leaderHint: n2)) {
            try harness.with(n1) { try $0.transferLeadership(to: n3) }
        }
    }

    /// A follower cut off from its leader stops counting as answering within two heartbeats, while its lag and state
    /// still look whole (so the leader balance hands it nothing); it counts again at its first answer.
    @Test func aSilentFollowerStopsAnsweringRecently() throws {
        var harness = try RaftHarness.elected(voters: [n1, n2, n3])
        harness.tickAll(times: 2)
        func status(_ node: NodeID) -> RaftFollowerStatus? { harness.node(n1).followers.first { $0.node == node } }
        #expect(status(n2)?.answeredRecently == true && status(n3)?.answeredRecently == true)
        harness.isolate(n2)
        harness.tickAll(times: 2 * harness.node(n1).configuration.heartbeatTicks + 1)
        #expect(status(n2)?.answeredRecently == false)
        #expect(status(n2)?.lag == 0 && status(n2)?.state == .replicate)
        #expect(status(n3)?.answeredRecently == true)
        harness.heal()
        harness.tickAll(times: harness.node(n1).configuration.heartbeatTicks)
        #expect(status(n2)?.answeredRecently == true)
    }

    /// A read-index request is answered only after a heartbeat quorum confirms the leader, with the commit index.
    @Test func readIndexConfirmsLeadershipFirst() throws {
        var harness = try RaftHarness.elected(voters: [n1, n2, n3])
        _ = harness.propose(n1, "w")
        harness.deliverAll()
        let commit = harness.node(n1).log.committed
        harness.isolate(n1)
        try harness.with(n1) { try $0.readIndex(context: [1]) }
        harness.deliverAll()
        #expect(harness.readStates[n1, default: []].isEmpty)
        harness.heal()
        try harness.with(n1) { try $0.readIndex(context: [2]) }
        harness.deliverAll()
        #expect(
            harness.readStates[n1] == [
                RaftReadState(index: commit, context: [1]), RaftReadState(index: commit, context: [2]),
            ])
    }

    /// A follower's read-index request is forwarded to the leader and answered back.
    @Test func followerReadIndexIsForwarded() throws {
        var harness = try RaftHarness.elected(voters: [n1, n2, n3])
        try harness.with(n3) { try $0.readIndex(context: [9]) }
        harness.deliverAll()
        #expect(harness.readStates[n3] == [RaftReadState(index: harness.node(n1).log.committed, context: [9])])
        var orphan = try RaftHarness(voters: [n1, n2])
        #expect(throws: RaftError.notLeader(leaderHint: nil)) { try orphan.with(n2) { try $0.readIndex(context: [1]) } }
    }

    /// A follower that needs compacted entries gets a snapshot, installs it from a Ready, then replicates on.
    @Test func laggingFollowerInstallsSnapshot() throws {
        var (harness, applied) = try RaftHarness.followerBehindACompaction()
        #expect(harness.node(n1).log.firstIndex == applied + 1)
        harness.heal()
        harness.tickAll(times: 3)
        #expect(harness.storage[n3]?.snapshot.index == applied)
        #expect(harness.node(n3).log.committed >= applied)
        _ = harness.propose(n1, "after")
        harness.deliverAll()
        harness.tickAll()
        #expect(harness.commands(n3) == ["after"])
        #expect(throws: RaftError.self) { try harness.with(n1) { try $0.compact(through: applied + 100) } }
    }
}
