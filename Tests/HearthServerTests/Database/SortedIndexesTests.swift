import HearthTestKit
import Testing

@testable import HearthDatabase
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
            #expect(Array(indexes.values) == model.sorted())
            #expect(indexes.first == model.min() && indexes.count == model.count)
            let probe = UInt64.random(in: 0...41, using: &random)
            #expect(indexes.first(after: probe) == model.filter { $0 > probe }.min())
        }
        #expect(indexes.isEmpty == model.isEmpty)
    }

    /// Thousands of indexes taken mostly from the front (as entries are shown), with new ones above and below the
    /// first: the reused front slots and their compaction keep the order.
    @Test(arguments: 0..<5 as Range<UInt64>) func takingFromTheFrontKeepsTheOrder(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var indexes = SortedIndexes()
        var model = Set<UInt64>()
        for index in 0..<5000 as Range<UInt64> where Bool.random(using: &random) {
            indexes.insert(index * 2)
            model.insert(index * 2)
        }
        while let first = model.min() {
            let roll = Int.random(in: 0..<10, using: &random)
            let index = roll < 8 ? first : UInt64.random(in: 0...10_000, using: &random)
            if roll == 9 {
                indexes.insert(index)
                model.insert(index)
            } else {
                indexes.remove(index)
                model.remove(index)
            }
            #expect(indexes.first == model.min())
            let probe = UInt64.random(in: 0...10_000, using: &random)
            #expect(indexes.first(after: probe) == model.filter { $0 > probe }.min())
        }
        #expect(indexes.isEmpty && indexes.count == 0)
        #expect(indexes == SortedIndexes())
    }

    @Test func nothingLiesAboveTheLargestIndex() {
        var indexes = SortedIndexes()
        indexes.insert(.max)
        #expect(indexes.first(after: .max) == nil)
        #expect(indexes.first(after: 0) == .max)
    }
}
