import Testing

@testable import HearthReplication

/// A member that has just started holds its clients' requests until it has caught up, at most its bound, and then
/// serves for good.
@Suite struct CatchUpHoldTests {
    static let origin = ContinuousClock.now

    static func at(_ milliseconds: Int) -> ContinuousClock.Instant {
        Self.origin + .milliseconds(milliseconds)
    }

    /// Held while behind; served from the look that finds it caught up, which alone reports the start.
    @Test func servesOnceCaughtUp() {
        var hold = CatchUpHold(opened: Self.at(0), maximumHold: .seconds(5))
        #expect(hold.decide(now: Self.at(100), caughtUp: false) == .hold(until: Self.at(5_000)))
        #expect(!hold.isServing)
        #expect(hold.decide(now: Self.at(700), caughtUp: true) == .serve(began: true))
        #expect(hold.heldFor == .milliseconds(700))
        #expect(hold.served?.caughtUp == true)
        #expect(hold.decide(now: Self.at(800), caughtUp: false) == .serve(began: false))
    }

    /// A member that does not catch up within the bound serves anyway, as it would without a hold.
    @Test func servesWhenTheHoldRunsOut() {
        var hold = CatchUpHold(opened: Self.at(0), maximumHold: .seconds(5))
        #expect(hold.decide(now: Self.at(4_999), caughtUp: false) == .hold(until: Self.at(5_000)))
        #expect(hold.decide(now: Self.at(5_000), caughtUp: false) == .serve(began: true))
        #expect(hold.served?.caughtUp == false)
    }

    /// A shard counts as caught up only against its leader's commit index: unknown until the leader gave it, then
    /// behind while more than the allowance of it is not applied (whatever the member's own commit index says).
    @Test func caughtUpIsJudgedAgainstTheLeadersCommit() {
        var hold = CatchUpHold(opened: Self.at(0), maximumHold: .seconds(5))
        let applied: [Int: UInt64] = [0: 900, 1: 40]
        func lagging() -> CatchUpHold.Lagging? { hold.lagging([0, 1], allowance: 128) { applied[$0] ?? 0 } }
        #expect(lagging() == .init(shard: 0, target: nil))
        hold.learned(shard: 0, leaderCommit: 1_000)
        #expect(lagging() == .init(shard: 1, target: nil))
        hold.learned(shard: 1, leaderCommit: 900)
        #expect(lagging() == .init(shard: 1, target: 900))
        hold.learned(shard: 1, leaderCommit: 100)
        #expect(hold.leaderCommits[1] == 900, "an older answer does not lower it")
        hold.learned(shard: 0, leaderCommit: 1_100)
        #expect(lagging() == .init(shard: 0, target: 1_100))
        #expect(hold.lagging([0], allowance: 200) { applied[$0] ?? 0 } == nil)
        #expect(hold.lagging([0], allowance: .max) { applied[$0] ?? 0 } == nil, "an allowance never overflows")
    }

    /// A zero bound serves at once.
    @Test func aZeroHoldServesAtOnce() {
        var hold = CatchUpHold(opened: Self.at(0), maximumHold: .zero)
        #expect(hold.decide(now: Self.at(0), caughtUp: false) == .serve(began: true))
    }
}
