import HearthCluster
import Synchronization
import Testing

/// A leader holds a follower's next append while one is in flight: proposals made during a replication round reach
/// each follower together once it is answered, the commit index still reaches every follower at once, and a lost
/// append does not stop replication.
@Suite struct RaftHeldAppendTests {
    let n1: NodeID = "n1"
    let n2: NodeID = "n2"
    let n3: NodeID = "n3"

    /// The entries of each append `harness` sent to `peer` that carried any, as command texts.
    private func appendedCommands(_ harness: RaftHarness, to peer: NodeID) -> [[String]] {
        harness.sent.compactMap { message in
            guard message.to == peer, case .append(_, _, let entries, _) = message.kind, !entries.isEmpty else {
                return nil
            }
            return entries.map { entry in
                guard case .command(let data) = entry.payload else { return "" }
                return String(decoding: data, as: UTF8.self)
            }
        }
    }

    /// Proposals made while an append is out go to each follower in one append once the first is answered, and
    /// every replica applies all of them.
    @Test func proposalsDuringARoundTravelTogether() throws {
        var harness = try RaftHarness.elected(voters: [n1, n2, n3])
        harness.sent = []
        for text in ["a", "b", "c", "d"] { _ = harness.propose(n1, text) }
        #expect(self.appendedCommands(harness, to: n2) == [["a"]], "b, c and d wait for a's answer")
        harness.deliverAll()
        #expect(self.appendedCommands(harness, to: n2) == [["a"], ["b", "c", "d"]])
        #expect(self.appendedCommands(harness, to: n3) == [["a"], ["b", "c", "d"]])
        for id in [n1, n2, n3] { #expect(harness.commands(id) == ["a", "b", "c", "d"]) }
    }

    /// A follower whose answer came after the commit index moved (its commit-only append was held behind its
    /// append in flight) learns the index as soon as it answers, without waiting for a heartbeat.
    @Test func aLateFollowerLearnsTheCommitWithoutAHeartbeat() throws {
        var harness = try RaftHarness.elected(voters: [n1, n2, n3])
        _ = harness.propose(n1, "a")
        harness.deliverAll()
        let leader = harness.node(n1).log.committed
        for id in [n2, n3] {
            #expect(harness.node(id).log.committed == leader)
            #expect(harness.commands(id) == ["a"])
        }
    }

    /// An append lost while the next ones wait behind it does not stall the follower: a heartbeat's answer frees the
    /// held append, the follower rejects it, and the leader sends what is missing.
    @Test func aLostAppendDoesNotStallTheFollower() throws {
        var harness = try RaftHarness.elected(voters: [n1, n2, n3])
        let lost = RaftMessageDrop()
        harness.drops = { message in
            guard message.to == "n2", case .append(_, _, let entries, _) = message.kind, !entries.isEmpty else {
                return false
            }
            return lost.first()
        }
        for text in ["a", "b", "c"] { _ = harness.propose(n1, text) }
        harness.deliverAll()
        #expect(harness.commands(n3) == ["a", "b", "c"])
        harness.tickAll(times: 3)
        #expect(harness.commands(n2) == ["a", "b", "c"])
    }
}

/// Says yes exactly once: a test's drop rule that loses only the first message it matches.
private final class RaftMessageDrop: Sendable {
    private let dropped = Mutex(false)

    func first() -> Bool {
        self.dropped.withLock { dropped in
            defer { dropped = true }
            return !dropped
        }
    }
}
