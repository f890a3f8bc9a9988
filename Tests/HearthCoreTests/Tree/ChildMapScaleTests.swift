import Foundation
import HearthCore
import HearthTestKit
import Testing

/// A million children, built and torn down both ways. Slow in debug builds, so it runs only with
/// `HEARTH_SLOW_TESTS=1 swift test --filter ChildMapScaleTests`; it prints how long each phase took.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["HEARTH_SLOW_TESTS"] == "1"))
struct ChildMapScaleTests {
    static let count = 1_000_000

    static func timed<Result>(_ label: String, _ body: () -> Result) -> Result {
        var result: Result?
        let elapsed = ContinuousClock().measure { result = body() }
        print("ChildMapScaleTests \(label): \(elapsed)")
        guard let result else { preconditionFailure("timed body produced no result") }
        return result
    }

    @Test func millionChildrenStayBalancedAndConsistent() {
        let seed: UInt64 = 1_000_000
        var random = SeededRandom(seed: seed)
        let keys = (0..<Self.count).map { Key(unchecked: "\($0)") }
        let shuffled = keys.shuffled(using: &random)
        let value = Node(.bool(true))

        let sequential = Self.timed("1M sequential in-place inserts") {
            var map = ChildMap()
            for key in keys { map.update(key, with: value) }
            return map
        }
        let persistent = Self.timed("1M random persistent inserts") {
            var map = ChildMap()
            for key in shuffled { map = map.updating(key, with: value) }
            return map
        }
        #expect(sequential.invariantViolation() == nil, "seed \(seed)")
        #expect(persistent.invariantViolation() == nil, "seed \(seed)")
        #expect(sequential.count == Self.count && persistent.count == Self.count)

        let found = Self.timed("1M random lookups") { shuffled.filter { persistent[$0] != nil }.count }
        #expect(found == Self.count)
        let inOrder = Self.timed("full iteration") { persistent.map(\.key) }
        #expect(inOrder == keys)

        let halved = Self.timed("500k random persistent removals") {
            var map = persistent
            for key in shuffled.prefix(Self.count / 2) { map = map.updating(key, with: nil) }
            return map
        }
        #expect(halved.invariantViolation() == nil, "seed \(seed)")
        #expect(halved.count == Self.count / 2)
        #expect(persistent.count == Self.count, "the original survives removals from its copy")
        #expect(Self.timed("full iteration of the original") { persistent.map(\.key) } == keys)
    }
}
