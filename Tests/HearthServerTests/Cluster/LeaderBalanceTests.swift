import HearthCluster
import Testing

@testable import HearthReplication

/// When the leader balance hands a shard back to its preferred leader, and how: only to a settled node, after the
/// shard's compare-and-sets drained, with the pause ended once another node leads.
@Suite struct LeaderBalanceTests {
    static let here = NodeID("n1")
    static let back = NodeID("n2")
    static let origin = ContinuousClock.now
    static let settings = LeaderBalance.Settings(
        settlePeriod: .seconds(5), round: .seconds(3), drainBound: .milliseconds(500), handoverBound: .seconds(1))

    static func at(_ milliseconds: Int) -> ContinuousClock.Instant {
        Self.origin + .milliseconds(milliseconds)
    }

    /// Shard 0, which this node leads and `back` prefers.
    static func shard(isLeader: Bool = true, caughtUp: Bool = true, running: Int = 0) -> LeaderBalance.Shard {
        LeaderBalance.Shard(
            shard: 0, preferred: Self.back, isLeader: isLeader, canHandOver: isLeader, preferredCaughtUp: caughtUp,
            running: running)
    }

    /// A balance that has seen `back` reachable on its first connection and had its first look at 0 ms.
    static func started() -> LeaderBalance {
        var balance = LeaderBalance(node: Self.here, settings: Self.settings)
        balance.observe(Self.back, isReachable: true, connections: 1, now: Self.at(0))
        #expect(balance.step(now: Self.at(0), shards: [Self.shard()]).isEmpty)
        return balance
    }

    /// A peer reachable since it was first seen is settled: its shard drains, transfers, and resumes once another
    /// node leads — the balance's old result, in three steps.
    @Test func aSettledPeerGetsItsShardAfterTheDrain() {
        var balance = Self.started()
        #expect(balance.step(now: Self.at(2_999), shards: [Self.shard()]).isEmpty)
        #expect(balance.step(now: Self.at(3_000), shards: [Self.shard(running: 1)]) == [.pause(shard: 0)])
        #expect(balance.step(now: Self.at(3_100), shards: [Self.shard(running: 1)]).isEmpty)
        #expect(balance.step(now: Self.at(3_200), shards: [Self.shard()]) == [.transfer(shard: 0, to: Self.back)])
        #expect(balance.step(now: Self.at(3_300), shards: [Self.shard()]).isEmpty)
        #expect(balance.step(now: Self.at(3_400), shards: [Self.shard(isLeader: false)]) == [.resume(shard: 0)])
        #expect(balance.handovers.isEmpty)
    }

    /// Between rounds, with no handover in progress, a step has nothing to decide; a handover keeps it due.
    @Test func stepsAreDueAtRoundsAndDuringHandovers() {
        var balance = Self.started()
        #expect(!balance.isDue(now: Self.at(2_999)))
        #expect(balance.isDue(now: Self.at(3_000)))
        #expect(balance.step(now: Self.at(3_000), shards: [Self.shard(running: 1)]) == [.pause(shard: 0)])
        #expect(balance.isDue(now: Self.at(3_100)))
    }

    /// A peer that restarted (a new connection) gets no shard until it has stayed reachable for the settle period,
    /// however caught up its log looks.
    @Test func aRestartedPeerWaitsOutTheSettlePeriod() {
        var balance = Self.started()
        balance.observe(Self.back, isReachable: false, connections: 1, now: Self.at(1_000))
        balance.observe(Self.back, isReachable: true, connections: 2, now: Self.at(2_000))
        #expect(!balance.isSettled(Self.back, now: Self.at(6_999)))
        #expect(balance.step(now: Self.at(3_000), shards: [Self.shard()]).isEmpty)
        #expect(balance.step(now: Self.at(6_000), shards: [Self.shard()]).isEmpty)
        #expect(balance.isSettled(Self.back, now: Self.at(7_000)))
        #expect(balance.step(now: Self.at(9_000), shards: [Self.shard()]) == [.pause(shard: 0)])
    }

    /// A restart too short for any look to find the peer unreachable still shows, as a new connection.
    @Test func aNewConnectionAloneStartsTheSettlePeriod() {
        var balance = Self.started()
        balance.observe(Self.back, isReachable: true, connections: 2, now: Self.at(1_000))
        #expect(!balance.isSettled(Self.back, now: Self.at(5_999)))
        #expect(balance.isSettled(Self.back, now: Self.at(6_000)))
    }

    /// A drain whose compare-and-sets do not finish transfers at the drain bound; a transfer nobody takes ends the
    /// pause at the handover bound.
    @Test func theDrainAndTheHandoverAreBounded() {
        var balance = Self.started()
        #expect(balance.step(now: Self.at(3_000), shards: [Self.shard(running: 2)]) == [.pause(shard: 0)])
        #expect(balance.step(now: Self.at(3_499), shards: [Self.shard(running: 2)]).isEmpty)
        #expect(
            balance.step(now: Self.at(3_500), shards: [Self.shard(running: 2)]) == [.transfer(shard: 0, to: Self.back)])
        #expect(balance.step(now: Self.at(4_499), shards: [Self.shard()]).isEmpty)
        #expect(balance.step(now: Self.at(4_500), shards: [Self.shard()]) == [.resume(shard: 0)])
    }

    /// A drain whose target stops qualifying (it fell behind, or became unreachable) ends and resumes the shard.
    @Test func aDrainEndsWhenItsTargetNoLongerQualifies() {
        var balance = Self.started()
        #expect(balance.step(now: Self.at(3_000), shards: [Self.shard(running: 1)]) == [.pause(shard: 0)])
        #expect(balance.step(now: Self.at(3_100), shards: [Self.shard(caughtUp: false)]) == [.resume(shard: 0)])
        #expect(balance.handovers.isEmpty)
    }

    /// A transfer the Raft node refuses ends its handover with the pause.
    @Test func aRefusedTransferResumesTheShard() {
        var balance = Self.started()
        #expect(balance.step(now: Self.at(3_000), shards: [Self.shard()]) == [.pause(shard: 0)])
        #expect(balance.step(now: Self.at(3_100), shards: [Self.shard()]) == [.transfer(shard: 0, to: Self.back)])
        #expect(balance.transferFailed(shard: 0) == [.resume(shard: 0)])
        #expect(balance.transferFailed(shard: 0).isEmpty)
    }

    /// Shards this node does not lead, or whose preferred leader is this node or lags, stay.
    @Test func onlyLedShardsWithACaughtUpPreferredLeaderMove() {
        var balance = Self.started()
        var own = Self.shard()
        own.preferred = Self.here
        let shards = [Self.shard(isLeader: false), Self.shard(caughtUp: false), own]
        #expect(balance.step(now: Self.at(3_000), shards: shards).isEmpty)
    }
}
