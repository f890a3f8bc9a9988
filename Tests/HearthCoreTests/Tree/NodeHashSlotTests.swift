import Testing

@testable import HearthCore

/// A stored node's hash slot (`Node.HashSlot`) is filled once, keeps the first text stored, and releases the text
/// it holds when it goes: what the node's hash cache relies on.
@Suite struct NodeHashSlotTests {
    /// An empty slot holds nothing; the first text stored stays, and a second store returns it and keeps it.
    @Test func theFirstTextStoredStays() {
        let slot = Node.HashSlot()
        #expect(slot.load() == nil)
        let first = Node.HashText("first")
        #expect(slot.storeIfNil(first) === first)
        #expect(slot.load() === first)
        #expect(slot.storeIfNil(Node.HashText("second")) === first)
        #expect(slot.load()?.value == "first")
    }

    /// The slot keeps its text alive while it lives, and releases it (and a losing store's copy) when it goes.
    @Test func theSlotReleasesWhatItHolds() {
        weak var kept: Node.HashText?
        weak var lost: Node.HashText?
        do {
            let slot = Node.HashSlot()
            do {
                let text = Node.HashText("kept")
                kept = text
                _ = slot.storeIfNil(text)
                let loser = Node.HashText("lost")
                lost = loser
                _ = slot.storeIfNil(loser)
            }
            #expect(kept != nil, "the slot holds its text")
            #expect(lost == nil, "a store that lost keeps nothing")
            #expect(slot.load()?.value == "kept")
        }
        #expect(kept == nil, "a slot that goes releases its text")
    }

    /// Threads racing to fill one slot all get the same text back.
    @Test func racingStoresAgreeOnOneText() async {
        let node = Node.Storage(content: .children(ChildMap()), priority: nil)
        let texts = await withTaskGroup(of: String.self) { group in
            for index in 0..<8 {
                group.addTask { node.cachedHash.storeIfNil(Node.HashText("text \(index)")).value }
            }
            return await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(Set(texts).count == 1)
        #expect(node.cachedHash.load()?.value == texts.first)
    }
}
