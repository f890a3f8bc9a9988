import HearthCluster
import Testing

@Suite struct SWIMInstanceGossipTests {
    private func gossip(_ swim: inout SWIMInstance, _ table: String, now: Duration = .seconds(1)) -> [SWIMEvent] {
        let members = SWIMTable.parse(table)
        let ack = SWIMMessage.Ack(target: SWIMTable.member("n2 alive"), sequence: 0, gossip: members)
        return swim.onAck(ack, from: "n2", now: now).events
    }

    @Test func statusPrecedenceFollowsIncarnations() throws {
        var swim = try SWIMTest.instance(knowing: "n2 alive; n3 alive@2")
        #expect(self.gossip(&swim, "n3 suspect@1 by=n4").isEmpty, "an older suspicion is stale")
        #expect(self.gossip(&swim, "n3 suspect@2 by=n4") == [.suspect(SWIMTable.member("n3 suspect@2 by=n4"))])
        #expect(self.gossip(&swim, "n3 alive@2").isEmpty, "only a higher incarnation refutes")
        #expect(self.gossip(&swim, "n3 suspect@2 by=n5").isEmpty)
        #expect(swim.member("n3") == SWIMTable.member("n3 suspect@2 by=n4,n5"), "suspecters combine")
        #expect(self.gossip(&swim, "n3 alive@3") == [.alive(SWIMTable.member("n3 alive@3"))])
        #expect(self.gossip(&swim, "n3 dead@0") == [.dead(SWIMTable.member("n3 dead@0"))], "dead is final")
        #expect(self.gossip(&swim, "n3 alive@9").isEmpty)
        #expect(SWIMTable.render(swim.members) == "n2 alive@0; n3 dead@0")
    }

    @Test func newerGenerationSupersedesATombstone() throws {
        var swim = try SWIMTest.instance(knowing: "n2 alive; n3 dead@4")
        #expect(self.gossip(&swim, "n3 alive gen=0").isEmpty, "an older run changes nothing")
        #expect(self.gossip(&swim, "n3 alive gen=2") == [.rejoined(SWIMTable.member("n3 alive gen=2"))])
        #expect(self.gossip(&swim, "n3 left gen=2") == [.left(SWIMTable.member("n3 left gen=2"))])
    }

    @Test func restartBeforeDetectionIsARejoin() throws {
        var swim = try SWIMTest.instance(knowing: "n2 alive; n3 suspect@1 by=n2")
        #expect(self.gossip(&swim, "n3 alive gen=3") == [.rejoined(SWIMTable.member("n3 alive gen=3"))])
    }

    @Test func suspicionAboutMyselfIsRefutedWithAHigherIncarnation() throws {
        var swim = try SWIMTest.instance(knowing: "n2 alive")
        _ = self.gossip(&swim, "n1 suspect@0 by=n2")
        #expect(swim.myself.incarnation == 1 && swim.myself.status == .alive)
        _ = self.gossip(&swim, "n1 suspect@0 by=n3")
        #expect(swim.myself.incarnation == 1, "a stale suspicion needs no second refutation")
        let ping = try #require(swim.onPeriodicTick(now: .seconds(2)).pings.first)
        #expect(ping.ping.origin.incarnation == 1)
        #expect(ping.ping.gossip.contains(swim.myself), "the refutation is gossiped")
    }

    /// A suspicion at the highest incarnation, which no incarnation can outbid, is refuted with a new generation
    /// instead of trapping on `incarnation + 1` (the number comes from a peer).
    @Test func suspicionAtTheHighestIncarnationStartsANewGeneration() throws {
        var swim = try SWIMTest.instance(knowing: "n2 alive")
        _ = self.gossip(&swim, "n1 suspect@\(UInt64.max) by=n2")
        #expect(swim.myself.generation == 2 && swim.myself.incarnation == 0 && swim.myself.status == .alive)
    }

    @Test func beingDeclaredDeadStartsANewGeneration() throws {
        var swim = try SWIMTest.instance(knowing: "n2 alive")
        _ = self.gossip(&swim, "n1 dead@3")
        #expect(swim.myself.generation == 2 && swim.myself.incarnation == 0 && swim.myself.status == .alive)
        _ = self.gossip(&swim, "n1 dead@0 gen=1")
        #expect(swim.myself.generation == 2, "gossip about the old run is ignored")
    }

    @Test func updatesAreGossipedAFewTimesEachLeastSentFirstAndBounded() throws {
        var settings = SWIMTest.settings
        settings.maxGossipPerMessage = 2
        settings.gossipMultiplier = 1
        var swim = try SWIMTest.instance(knowing: "n2 alive; n3 alive; n4 alive", settings: settings)
        var counts: [NodeID: Int] = [:]
        for tick in 0..<12 {
            let ping = try #require(swim.onPeriodicTick(now: .seconds(tick)).pings.first)
            #expect(ping.ping.gossip.count <= 2)
            for member in ping.ping.gossip { counts[member.id, default: 0] += 1 }
        }
        #expect(counts == ["n2": 3, "n3": 3, "n4": 3], "λ·⌈log₂(4 + 1)⌉ = 3 sends each, then silence")
    }

    @Test func suspicionTimesOutToDeadFasterWithConfirmations() throws {
        var swim = try SWIMTest.instance(knowing: "n2 alive; n3 alive; n4 alive; n5 alive; n6 alive")
        #expect(swim.suspicionTimeout(suspecters: 1) == .seconds(9))
        #expect(swim.suspicionTimeout(suspecters: 2) == .seconds(7))
        #expect(swim.suspicionTimeout(suspecters: 4) == .seconds(3))
        #expect(swim.suspicionTimeout(suspecters: 9) == .seconds(3))
        _ = self.gossip(&swim, "n5 suspect by=n2; n6 suspect by=n2", now: .seconds(10))
        _ = self.gossip(&swim, "n6 suspect by=n3,n4,n5", now: .seconds(11))
        let early = swim.onPeriodicTick(now: .seconds(13)).events
        #expect(early == [.dead(SWIMTable.member("n6 dead"))], "four suspecters: 3 s")
        let late = swim.onPeriodicTick(now: .seconds(19)).events
        #expect(late == [.dead(SWIMTable.member("n5 dead"))], "one suspecter: 9 s")
    }

    @Test func tombstonesExpireAfterTombstoneTime() throws {
        var swim = try SWIMTest.instance(knowing: "n2 alive; n3 dead")
        _ = swim.onPeriodicTick(now: .seconds(59))
        #expect(swim.member("n3")?.status == .dead)
        _ = swim.onPeriodicTick(now: .seconds(60))
        #expect(swim.member("n3") == nil)
    }

    @Test func deadMembersArePingedAgainEveryReconnectInterval() throws {
        var swim = try SWIMTest.instance(knowing: "n2 alive; n3 dead")
        #expect(swim.onPeriodicTick(now: .seconds(0)).pings.map(\.to) == ["n2"])
        #expect(swim.onPeriodicTick(now: .seconds(5)).pings.map(\.to) == ["n2"])
        let directives = swim.onPeriodicTick(now: .seconds(10))
        #expect(directives.pings.map(\.to) == ["n2", "n3"])
        let reconnect = try #require(directives.pings.last?.ping)
        #expect(reconnect.wantsFullState && reconnect.gossip.first == SWIMTable.member("n3 dead"))
    }
}
