import HearthTestKit
import Testing

@testable import HearthCore

@Suite struct KeySortKeyTests {
    /// Keys of every kind the order treats apart: integers (negative, zero-led, out of range), short and long ASCII,
    /// keys sharing their first eight bytes, and non-ASCII ones (where UTF-8 and UTF-16 orders can disagree).
    private static func randomKey(_ random: inout SeededRandom) -> Key {
        let number = Int.random(in: 0..<40, using: &random)
        let text: String =
            switch Int.random(in: 0..<9, using: &random) {
            case 0: "\(number)"
            case 1: "-\(number)"
            case 2: "0\(number)"
            case 3: "u\(number)"
            case 4: "user-000\(number)"
            case 5: "\(number)99999999999"
            case 6: "é\(number)"
            case 7: "a\u{FF5E}\(number % 3)"
            default: "a\u{1F600}\(number % 3)"
            }
        return Key(unchecked: text)
    }

    /// Sorting with the sort keys gives exactly the order of `Key.<` with ties in arrival order, as the write
    /// builder sorted before.
    @Test(arguments: [1, 2, 3, 4, 5, 6]) func sortsAsKeyOrderWithTiesInArrivalOrder(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        for _ in 0..<50 {
            let keys = (0..<Int.random(in: 0...60, using: &random)).map { _ in Self.randomKey(&random) }
            let fast = KeySortKey.order(keys)
            let reference = keys.indices.sorted { left, right in
                keys[left] == keys[right] ? left < right : keys[left] < keys[right]
            }
            #expect(fast.map { keys[$0] } == reference.map { keys[$0] })
            #expect(fast == reference)
        }
    }

    /// A short key sorts before a longer one that starts with it, and eight equal leading bytes fall back to the
    /// whole keys.
    @Test func prefixesOrderShortBeforeLongAndFallBackWhenEqual() {
        let keys = ["ab", "a", "abcdefghj", "abcdefghi", "abcdefgh", "b"].map { Key(unchecked: $0) }
        let order = KeySortKey.order(keys)
        #expect(order.map { keys[$0].string } == ["a", "ab", "abcdefgh", "abcdefghi", "abcdefghj", "b"])
    }
}
