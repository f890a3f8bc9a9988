import HearthCore
import Testing

@testable import HearthDatabase
@testable import HearthReplication

/// The resolver's bookkeeping of prepared parts (`PreparedPartAges`): each part's age by this node's clock, and
/// what the resolver does with it by then.
@Suite struct PreparedPartAgesTests {
    private static let start = ContinuousClock.now
    private static let intent = ShardIntent(
        write: ShardWrite(namespace: "default", mutations: [], now: 0),
        plan: ShardTransactionPlan(anchor: 1, participants: [0, 1]))

    private static func ages() -> PreparedPartAges {
        PreparedPartAges(orphanCheckAfter: .milliseconds(200), silenceAfter: .seconds(1), resolveAfter: .seconds(10))
    }

    /// A part is asked about once prepared for the orphan check, and resolved whatever is said once prepared for the
    /// resolve timeout; its age counts from when this node first saw it.
    @Test func aPartIsAskedAboutThenResolvedAsItAges() {
        var ages = Self.ages()
        let id = TransactionID(rawValue: 1)
        let fresh = ages.observe([id: Self.intent], now: Self.start)
        #expect(fresh.stale.isEmpty && fresh.suspects.isEmpty)
        let suspect = ages.observe([id: Self.intent], now: Self.start + .milliseconds(300))
        #expect(Array(suspect.suspects.keys) == [id] && suspect.stale.isEmpty)
        #expect(ages.overdue([id], at: Self.start + .milliseconds(900)).isEmpty)
        #expect(ages.overdue([id], at: Self.start + .seconds(1)) == [id])
        let stale = ages.observe([id: Self.intent], now: Self.start + .seconds(10))
        #expect(Array(stale.stale.keys) == [id] && stale.suspects.isEmpty)
        #expect(ages.age(of: id, at: Self.start + .seconds(10)) == .seconds(10))
        #expect(!ages.isOrphan(age: .seconds(10)) && ages.isOrphan(age: .seconds(2)))
    }

    /// A part no longer prepared is forgotten: prepared again later, its age starts over.
    @Test func aPartGoneIsForgotten() {
        var ages = Self.ages()
        let id = TransactionID(rawValue: 2)
        _ = ages.observe([id: Self.intent], now: Self.start)
        _ = ages.observe([:], now: Self.start + .seconds(5))
        #expect(ages.firstSeen.isEmpty)
        let again = ages.observe([id: Self.intent], now: Self.start + .seconds(11))
        #expect(again.stale.isEmpty && again.suspects.isEmpty)
        #expect(ages.age(of: id, at: Self.start + .seconds(11)) == .zero)
    }
}
