import HearthCluster
import Testing

@Suite struct SWIMInstanceProbeTests {
    @Test func tickPingsEveryMemberOncePerRoundAndStartsItsTimer() throws {
        var swim = try SWIMTest.instance(knowing: "n2 alive; n3 alive; n4 alive; n5 dead")
        var probed: [NodeID] = []
        for round in 0..<3 {
            var thisRound: Set<NodeID> = []
            for tick in 0..<3 {
                let directives = swim.onPeriodicTick(now: .seconds(round * 3 + tick))
                let ping = try #require(directives.pings.first)
                #expect(ping.ping.origin == swim.myself)
                #expect(directives.timers.map(\.after) == [.milliseconds(300)])
                #expect(directives.timers.first?.timer == SWIMTimer(sequence: ping.ping.sequence, step: 0))
                thisRound.insert(ping.to)
                probed.append(ping.to)
            }
            #expect(thisRound == ["n2", "n3", "n4"])
        }
        #expect(probed != probed.sorted(), "rounds are shuffled")
    }

    @Test func missedAckTurnsIntoPingRequestsThroughKMembers() throws {
        var swim = try SWIMTest.instance(knowing: "n2 alive; n3 alive; n4 alive; n5 alive; n6 suspect")
        let (target, timer) = try self.probe(&swim, until: "n2")
        let directives = swim.onTimeout(timer, now: .milliseconds(300))
        let requests = directives.sent.compactMap { sent -> (SWIMMessage.PingRequest, NodeID)? in
            if case .pingRequest(let request) = sent.message { return (request, sent.to) }
            return nil
        }
        #expect(requests.count == 3)
        #expect(Set(requests.map(\.1)).isSubset(of: ["n3", "n4", "n5"]), "only alive members relay")
        #expect(requests.allSatisfy { $0.0.target == target && $0.0.sequence == timer.sequence })
        #expect(directives.timers.map(\.timer) == [SWIMTimer(sequence: timer.sequence, step: 1)])
        #expect(directives.timers.map(\.after) == [.milliseconds(600)])
        #expect(directives.events.isEmpty, "no suspicion before the indirect probe fails")
    }

    @Test func failedIndirectProbeRaisesSuspicion() throws {
        var swim = try SWIMTest.instance(knowing: "n2 alive@4; n3 alive")
        let (_, timer) = try self.probe(&swim, until: "n2")
        _ = swim.onTimeout(timer, now: .milliseconds(300))
        let directives = swim.onTimeout(SWIMTimer(sequence: timer.sequence, step: 1), now: .milliseconds(900))
        #expect(directives.events == [.suspect(SWIMTable.member("n2 suspect@4 by=n1"))])
        #expect(swim.member("n2") == SWIMTable.member("n2 suspect@4 by=n1"))
    }

    @Test func withoutRelaysAMissedAckSuspectsAtOnce() throws {
        var swim = try SWIMTest.instance(knowing: "n2 alive")
        let (_, timer) = try self.probe(&swim, until: "n2")
        let directives = swim.onTimeout(timer, now: .milliseconds(300))
        #expect(directives.events == [.suspect(SWIMTable.member("n2 suspect by=n1"))])
        #expect(directives.sent.isEmpty)
    }

    @Test func ackAnswersTheProbeAndLaterTimersAreIgnored() throws {
        var swim = try SWIMTest.instance(knowing: "n2 alive; n3 alive")
        let (_, timer) = try self.probe(&swim, until: "n2")
        let ack = SWIMMessage.Ack(target: SWIMTable.member("n2 alive"), sequence: timer.sequence)
        #expect(swim.onAck(ack, from: "n2", now: .milliseconds(20)).isEmpty)
        #expect(swim.onTimeout(timer, now: .milliseconds(300)).isEmpty)
        #expect(swim.member("n2")?.status == .alive)
    }

    @Test func relayedAckDuringIndirectPhaseEndsTheProbe() throws {
        var swim = try SWIMTest.instance(knowing: "n2 alive; n3 alive")
        let (_, timer) = try self.probe(&swim, until: "n2")
        _ = swim.onTimeout(timer, now: .milliseconds(300))
        let relayed = SWIMMessage.Ack(target: SWIMTable.member("n2 alive"), sequence: timer.sequence)
        #expect(swim.onAck(relayed, from: "n3", now: .milliseconds(400)).isEmpty)
        #expect(swim.onTimeout(SWIMTimer(sequence: timer.sequence, step: 1), now: .milliseconds(900)).isEmpty)
        #expect(swim.member("n2")?.status == .alive)
    }

    @Test func pingToASuspectCarriesItsSuspicionFirst() throws {
        var swim = try SWIMTest.instance(knowing: "n2 suspect@3 by=n4; n3 alive; n4 alive")
        for tick in 0..<3 {
            let ping = try #require(swim.onPeriodicTick(now: .seconds(tick)).pings.first)
            if ping.to == "n2" {
                #expect(ping.ping.gossip.first == SWIMTable.member("n2 suspect@3 by=n4"))
                return
            }
        }
        Issue.record("n2 was never probed")
    }

    /// Ticks until the probe goes to `target`; returns its direct-ping timer.
    private func probe(_ swim: inout SWIMInstance, until target: NodeID) throws -> (NodeID, SWIMTimer) {
        for _ in 0..<swim.members.count {
            let directives = swim.onPeriodicTick(now: .zero)
            if let ping = directives.pings.first, ping.to == target {
                return (target, try #require(directives.timers.first?.timer))
            }
        }
        throw ProbeNotFound()
    }

    private struct ProbeNotFound: Error {}
}
