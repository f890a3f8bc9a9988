import HearthCluster
import Testing

/// How the leader paces each follower: the shell's reports of unreachable peers and of snapshots that failed.
@Suite struct RaftFlowControlTests {
    let n1: NodeID = "n1"
    let n2: NodeID = "n2"
    let n3: NodeID = "n3"

    private func appendsSent(_ harness: RaftHarness, to peer: NodeID) -> Int {
        harness.sent.count { message in
            guard message.to == peer, case .append = message.kind else { return false }
            return true
        }
    }

    /// An unreachable follower is probed with one append at a time instead of a pipeline.
    @Test func unreachableFollowerIsProbed() throws {
        var harness = try RaftHarness.elected(voters: [n1, n2, n3])
        harness.cut.insert("\(n1)>\(n2)")
        harness.sent = []
        for index in 0..<4 { _ = harness.propose(n1, "p\(index)") }
        #expect(self.appendsSent(harness, to: n2) == 4)
        harness.with(n1) { $0.reportUnreachable(n2) }
        harness.sent = []
        for index in 0..<4 { _ = harness.propose(n1, "q\(index)") }
        #expect(self.appendsSent(harness, to: n2) == 1)
    }

    /// A snapshot reported as failed is asked for again at the next contact, well before the snapshot timeout.
    @Test func failedSnapshotIsRetried() throws {
        var (harness, applied) = try RaftHarness.followerBehindACompaction()
        harness.heal()
        harness.drops = { message in
            if case .installSnapshot = message.kind { return true }
            return false
        }
        harness.tickAll(times: 2)
        #expect(harness.storage[n3]?.snapshot.index == 0)
        harness.drops = nil
        harness.tickAll(times: 3)
        #expect(harness.storage[n3]?.snapshot.index == 0)
        harness.with(n1) { $0.reportSnapshot(to: n3, succeeded: false) }
        harness.tickAll(times: 3)
        #expect(harness.storage[n3]?.snapshot.index == applied)
        #expect(harness.node(n3).log.committed >= applied)
    }
}
