import HearthCluster
import Testing

@Suite struct SWIMInstanceJoinTests {
    @Test func joinConnectsToSeedsAndPingsEachHandshakeForFullState() throws {
        var swim = try SWIMTest.instance()
        let seed = SWIMTable.address("n2")
        #expect(swim.join(seeds: [seed, swim.myself.address], now: .zero) == [.connect(seed)])
        let directives = swim.onHandshake(peer: "n2", now: .milliseconds(5))
        let ping = try #require(directives.pings.first)
        #expect(ping.to == "n2" && ping.ping.wantsFullState)
        let ack = SWIMMessage.Ack(
            target: SWIMTable.member("n2 alive"),
            sequence: ping.ping.sequence,
            gossip: SWIMTable.parse("n1 alive; n2 alive; n3 alive@4; n4 dead")
        )
        let events = swim.onAck(ack, from: "n2", now: .milliseconds(10)).events
        #expect(events == [.joined(SWIMTable.member("n2 alive")), .joined(SWIMTable.member("n3 alive@4"))])
        #expect(SWIMTable.render(swim.members) == "n2 alive@0; n3 alive@4; n4 dead@0")
        #expect(swim.onHandshake(peer: "n3", now: .seconds(1)).isEmpty, "known members need no join ping")
    }

    @Test func aLoneNodeKeepsReconnectingToItsSeeds() throws {
        var swim = try SWIMTest.instance()
        let seed = SWIMTable.address("n2")
        _ = swim.join(seeds: [seed], now: .zero)
        #expect(swim.onPeriodicTick(now: .seconds(1)) == [.connect(seed)])
        let timer = try #require(swim.onHandshake(peer: "n2", now: .seconds(1)).timers.first?.timer)
        #expect(swim.onTimeout(timer, now: .seconds(2)).isEmpty, "an unanswered join ping suspects nobody")
        #expect(swim.onPeriodicTick(now: .seconds(2)) == [.connect(seed)])
    }

    @Test func leavingTellsEveryReachableMemberAndStopsProbing() throws {
        var swim = try SWIMTest.instance(knowing: "n2 alive; n3 suspect by=n2; n4 dead")
        let directives = swim.leave(now: .seconds(1))
        #expect(directives.pings.map(\.to) == ["n2", "n3"])
        #expect(directives.pings.allSatisfy { $0.ping.origin.status == .left && $0.ping.gossip == [swim.myself] })
        #expect(swim.onPeriodicTick(now: .seconds(2)).isEmpty)

        var peer = try SWIMTest.instance("n2", knowing: "n1 alive")
        let ping = try #require(directives.pings.first?.ping)
        let events = peer.onPing(ping, from: "n1", now: .seconds(1)).events
        #expect(events == [.left(SWIMTable.member("n1 left"))])
    }
}
