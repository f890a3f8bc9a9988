import Testing

@testable import HearthDatabase

/// Decisions to forget go to their anchor in batches: each batch once it is old enough or long enough, so that a
/// busy cluster pays a `forget` entry per anchor every few seconds, not one per tick on every node.
@Suite struct DecisionsToForgetTests {
    /// A batch waits `maxAge` ticks, then goes whole; an anchor's later transactions start a new batch.
    @Test func aBatchGoesOnceItIsOldEnough() {
        let forgets = DecisionsToForget()
        forgets.add(TransactionID(rawValue: 1), anchor: 3)
        forgets.add(TransactionID(rawValue: 2), anchor: 3)
        for _ in 1..<DecisionsToForget.maxAge { #expect(forgets.takeDue().isEmpty) }
        forgets.add(TransactionID(rawValue: 3), anchor: 5)
        #expect(forgets.takeDue() == [3: [TransactionID(rawValue: 1), TransactionID(rawValue: 2)]])
        #expect(forgets.count == 1, "anchor 5's batch is younger and stays (it aged one tick)")
        for _ in 2..<DecisionsToForget.maxAge { #expect(forgets.takeDue().isEmpty) }
        #expect(forgets.takeDue() == [5: [TransactionID(rawValue: 3)]])
        #expect(forgets.count == 0)
    }

    /// A batch that reaches `maxBatch` transactions goes at the next tick, however young.
    @Test func aLongBatchGoesAtOnce() {
        let forgets = DecisionsToForget()
        for id in 0..<UInt64(DecisionsToForget.maxBatch) { forgets.add(TransactionID(rawValue: id), anchor: 0) }
        forgets.add(TransactionID(rawValue: 9_999), anchor: 1)
        let due = forgets.takeDue()
        #expect(due[0]?.count == DecisionsToForget.maxBatch)
        #expect(due[1] == nil)
    }

    /// Flushing takes every batch, due or not.
    @Test func takeTakesEverything() {
        let forgets = DecisionsToForget()
        forgets.add(TransactionID(rawValue: 1), anchor: 2)
        #expect(forgets.take() == [2: [TransactionID(rawValue: 1)]])
        #expect(forgets.takeDue().isEmpty)
    }
}
