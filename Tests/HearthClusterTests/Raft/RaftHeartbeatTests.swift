import HearthCluster
import Testing

/// A leader's heartbeat tick leaves out followers that got an append since the last tick (the append restarted
/// their election timer and carried the commit index); idle followers, and every follower while a read waits, get
/// one.
@Suite struct RaftHeartbeatTests {
    private func heartbeats(sentSince start: Int, in harness: RaftHarness) -> [NodeID] {
        harness.sent[start...].compactMap { message in
            if case .heartbeat = message.kind { return message.to }
            return nil
        }.sorted()
    }

    /// After a proposal's appends, the next tick sends no heartbeat; the tick after it, with nothing appended,
    /// sends one to each follower, and a follower that heard only appends stays a follower.
    @Test func appendsStandInForTheNextHeartbeat() throws {
        var harness = try RaftHarness.elected(voters: ["n1", "n2", "n3"])
        _ = harness.propose("n1", "star")
        harness.deliverAll()
        var start = harness.sent.count
        harness.with("n1") { $0.tick() }
        #expect(self.heartbeats(sentSince: start, in: harness).isEmpty)
        start = harness.sent.count
        harness.with("n1") { $0.tick() }
        #expect(self.heartbeats(sentSince: start, in: harness) == ["n2", "n3"])
        // Proposals on every tick keep the followers following without a single heartbeat.
        start = harness.sent.count
        for index in 0..<(3 * harness.configuration.electionTicks) {
            _ = harness.propose("n1", "star \(index)")
            harness.tickAll()
        }
        #expect(self.heartbeats(sentSince: start, in: harness).isEmpty)
        #expect(harness.leaders == ["n1"])
        #expect(harness.commands("n3").count == 1 + 3 * harness.configuration.electionTicks)
    }

    /// While a read waits for its confirmation, the tick heartbeats every follower, appends or not.
    @Test func aWaitingReadGetsHeartbeatsToEveryFollower() throws {
        var harness = try RaftHarness.elected(voters: ["n1", "n2", "n3"])
        harness.isolate("n2")
        harness.isolate("n3")
        try harness.with("n1") { try $0.readIndex(context: [1]) }
        _ = harness.propose("n1", "star")
        let start = harness.sent.count
        harness.with("n1") { $0.tick() }
        #expect(self.heartbeats(sentSince: start, in: harness) == ["n2", "n3"])
    }
}
