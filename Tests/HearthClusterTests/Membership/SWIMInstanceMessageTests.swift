import HearthCluster
import Testing

@Suite struct SWIMInstanceMessageTests {
    @Test func pingFromAKnownMemberIsAckedWithOwnRecordAndGossip() throws {
        var swim = try SWIMTest.instance(knowing: "n2 alive; n3 alive")
        let ping = SWIMMessage.Ping(origin: SWIMTable.member("n2 alive"), sequence: 77)
        let directives = swim.onPing(ping, from: "n2", now: .seconds(1))
        guard case .ack(let ack)? = directives.sent.first?.message else {
            Issue.record("expected an ack, got \(directives)")
            return
        }
        #expect(directives.sent.map(\.to) == ["n2"])
        #expect(ack.target == swim.myself && ack.sequence == 77)
        #expect(ack.gossip.count <= SWIMTest.settings.maxGossipPerMessage)
        #expect(directives.events.isEmpty)
    }

    @Test func pingFromAnUnknownMemberAddsItAndSendsEverything() throws {
        var swim = try SWIMTest.instance(knowing: "n2 alive; n3 suspect@1 by=n2; n4 dead")
        let newcomer = SWIMTable.member("n9 alive gen=5")
        let directives = swim.onPing(SWIMMessage.Ping(origin: newcomer, sequence: 1), from: "n9", now: .seconds(1))
        #expect(directives.events == [.joined(newcomer)])
        guard case .ack(let ack)? = directives.sent.first?.message else {
            Issue.record("expected an ack, got \(directives)")
            return
        }
        #expect(
            SWIMTable.render(ack.gossip)
                == "n1 alive@0; n2 alive@0; n3 suspect@1 by=n2; n4 dead@0; n9 alive@0 gen=5"
        )
    }

    @Test func pingRequestProbesTheTargetAndRelaysItsAck() throws {
        var swim = try SWIMTest.instance(knowing: "n2 alive; n3 alive")
        let request = SWIMMessage.PingRequest(origin: SWIMTable.member("n2 alive"), target: "n3", sequence: 40)
        let directives = swim.onPingRequest(request, from: "n2", now: .zero)
        let ping = try #require(directives.pings.first)
        #expect(ping.to == "n3")
        #expect(directives.timers.map(\.after) == [.milliseconds(300)])
        let ack = SWIMMessage.Ack(target: SWIMTable.member("n3 alive@2"), sequence: ping.ping.sequence)
        let relayed = swim.onAck(ack, from: "n3", now: .milliseconds(10))
        guard case .ack(let forwarded)? = relayed.sent.first?.message else {
            Issue.record("expected a relayed ack, got \(relayed)")
            return
        }
        #expect(relayed.sent.map(\.to) == ["n2"])
        #expect(forwarded.sequence == 40 && forwarded.target == SWIMTable.member("n3 alive@2"))
    }

    @Test func pingRequestWhoseTargetStaysSilentIsNacked() throws {
        var swim = try SWIMTest.instance(knowing: "n2 alive; n3 alive")
        let request = SWIMMessage.PingRequest(origin: SWIMTable.member("n2 alive"), target: "n3", sequence: 40)
        let timer = try #require(swim.onPingRequest(request, from: "n2", now: .zero).timers.first?.timer)
        let directives = swim.onTimeout(timer, now: .milliseconds(300))
        #expect(directives == [.send(.nack(SWIMMessage.Nack(target: "n3", sequence: 40)), to: "n2")])
        #expect(swim.member("n3")?.status == .alive, "a relay suspects nobody")
    }

    @Test func ackForAnotherTargetDoesNotAnswerTheProbe() throws {
        var swim = try SWIMTest.instance(knowing: "n2 alive")
        let timer = try #require(swim.onPeriodicTick(now: .zero).timers.first?.timer)
        let forged = SWIMMessage.Ack(target: SWIMTable.member("n7 alive"), sequence: timer.sequence)
        _ = swim.onAck(forged, from: "n7", now: .milliseconds(5))
        let expected = SWIMMessage.PingRequest(origin: swim.myself, target: "n2", sequence: timer.sequence)
        let directives = swim.onTimeout(timer, now: .milliseconds(300))
        #expect(directives.sent.map(\.to) == ["n7"], "the probe of n2 goes on, through n7")
        if case .pingRequest(let request)? = directives.sent.first?.message {
            #expect(request.target == expected.target && request.sequence == expected.sequence)
        }
    }

    @Test func messagesDispatchToTheirHandlers() throws {
        var swim = try SWIMTest.instance(knowing: "n2 alive")
        let nack = SWIMMessage.nack(SWIMMessage.Nack(target: "n2", sequence: 1))
        #expect(swim.onMessage(nack, from: "n2", now: .zero).isEmpty)
        let ping = SWIMMessage.ping(SWIMMessage.Ping(origin: SWIMTable.member("n2 alive"), sequence: 9))
        #expect(swim.onMessage(ping, from: "n2", now: .zero).sent.count == 1)
    }
}
