import HearthCore
import HearthTestKit
import Testing

@testable import HearthDatabase
@testable import HearthServer

/// One shard's queued entries in the commit feed: found by index, taken from anywhere, the first always the lowest
/// still queued, as a dictionary of entries would answer.
@Suite struct EntryQueueTests {
    private static func entry(_ index: UInt64) -> ShardApplied {
        ShardApplied(shard: 0, index: index, effect: .bookkeeping(forgotten: []))
    }

    @Test(arguments: 0..<20 as Range<UInt64>) func behavesLikeADictionaryByIndex(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var queue = EntryQueue()
        var model: [UInt64: ShardApplied] = [:]
        var next = UInt64.random(in: 1...100, using: &random)
        for _ in 0..<4000 {
            if model.isEmpty || Int.random(in: 0..<10, using: &random) < 4 {
                queue.append(Self.entry(next))
                model[next] = Self.entry(next)
                next += 1
            } else {
                // Mostly the first, as the feed shows entries; sometimes one in the middle or one already gone.
                let lowest = model.keys.min() ?? 0
                let index =
                    Bool.random(using: &random) ? lowest : UInt64.random(in: lowest...(next + 1), using: &random)
                queue.remove(index)
                model[index] = nil
            }
            #expect(queue.count == model.count && queue.isEmpty == model.isEmpty)
            #expect(queue.first?.index == model.keys.min())
            let probe = UInt64.random(in: 0...(next + 1), using: &random)
            #expect(queue[probe]?.index == model[probe]?.index)
        }
        #expect(queue.entries.map(\.index) == model.keys.sorted())
    }

    @Test func anEmptiedQueueStartsAgainAtAnyIndex() {
        var queue = EntryQueue()
        queue.append(Self.entry(7))
        queue.append(Self.entry(8))
        queue.remove(7)
        queue.remove(8)
        #expect(queue.isEmpty && queue.first == nil && queue[8] == nil)
        queue.append(Self.entry(100))
        #expect(queue.first?.index == 100 && queue.count == 1)
        queue.removeAll()
        #expect(queue.isEmpty && queue.entries.isEmpty)
    }
}
