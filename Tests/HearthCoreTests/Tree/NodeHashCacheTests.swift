import Testing

@testable import HearthCore

/// A stored node's hash cache (`Node.Storage.cachedHash`, a `OnceReference`, whose own tests show it keeps the first
/// object stored and releases what it holds) is filled once however many threads compute the hash at once.
@Suite struct NodeHashCacheTests {
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
