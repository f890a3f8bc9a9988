import HearthTestKit
import Testing

@testable import HearthCore

/// A binary search reads the key it seeks once (`Key.Probe`); its comparisons must agree with `Key.<` for every
/// pair: integer keys (with signs and leading zeros), ASCII and non-ASCII names.
@Suite struct KeyProbeTests {
    private static let texts = [
        "0", "1", "01", "-1", "-01", "10", "2147483647", "2147483648", "-2147483648", "a", "A", "ab", "a b", "é",
        "e\u{301}", "z", "\u{1F600}", "\u{FF5E}", "[MIN_NAME]", "00", "1a", "-", "--1",
    ]

    /// Both of a probe's comparisons agree with `<` for every pair of a varied set of keys.
    @Test func probeComparisonsAgreeWithKeyOrder() {
        let keys = Self.texts.map { Key(unchecked: $0) }
        for probed in keys {
            probed.withProbe { probe in
                for other in keys {
                    #expect(probe?.follows(other, probing: probed) == (other < probed), "\(other) < \(probed)")
                    #expect(probe?.precedes(other, probing: probed) == (probed < other), "\(probed) < \(other)")
                }
            }
        }
    }

    /// Every key of a large map of integer and non-ASCII keys is found, and the map iterates in key order.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func childLookupsFindEveryKeyOfALargeMap(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var map = ChildMap()
        var present: [Key] = []
        for index in 0..<400 {
            let text = Bool.random(using: &random) ? "\(Int.random(in: -500...500, using: &random))" : "k\(index)é"
            let key = Key(unchecked: text)
            map.update(key, with: Node(.int(Int64(index))))
            present.append(key)
        }
        for key in present { #expect(map[key] != nil, "\(key)") }
        #expect(map[Key(unchecked: "absent")] == nil)
        #expect(zip(map.map(\.key), map.map(\.key).dropFirst()).allSatisfy { $0 < $1 })
    }
}
