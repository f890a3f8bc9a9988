import HearthTestKit
import Testing

@testable import HearthServer

/// The commit feed's blocked entries: a sorted set whose "next above" answers what a plain `Set` would.
@Suite struct SortedIndexesTests {
    @Test(arguments: 0..<50 as Range<UInt64>) func behavesLikeASortedSet(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var indexes = SortedIndexes()
        var model = Set<UInt64>()
        for _ in 0..<200 {
            let index = UInt64.random(in: 0...40, using: &random)
            if Bool.random(using: &random) {
                indexes.insert(index)
                model.insert(index)
            } else {
                indexes.remove(index)
                model.remove(index)
            }
            #expect(indexes.values == model.sorted())
            let probe = UInt64.random(in: 0...41, using: &random)
            #expect(indexes.first(after: probe) == model.filter { $0 > probe }.min())
        }
        #expect(indexes.isEmpty == model.isEmpty)
    }

    @Test func nothingLiesAboveTheLargestIndex() {
        var indexes = SortedIndexes()
        indexes.insert(.max)
        #expect(indexes.first(after: .max) == nil)
        #expect(indexes.first(after: 0) == .max)
    }
}
