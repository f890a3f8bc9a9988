import HearthTestKit
import Testing

@testable import HearthCore

/// A maintained index answers every query exactly as a scan does, built at once or kept up through random changes,
/// and stays a balanced, ordered tree.
@Suite struct IndexTreePropertyTests {
    @Test(arguments: [1, 2, 3] as [UInt64])
    func anIndexAnswersAsTheScanDoesThroughRandomChanges(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        for iteration in 0..<300 {
            var node = QueryPropertyTests.randomTree(&random)
            let (index, start, end, limit) = QueryPropertyTests.randomQuery(&random)
            let spec = try QuerySpec(index: index, start: start, end: end, limit: limit)
            guard index != .key, !spec.loadsAllData else { continue }
            var tree = IndexTree(node, index: index)
            for step in 0..<6 {
                let context = "seed \(seed) iteration \(iteration) step \(step): \(spec.wireObject)"
                #expect(tree.isValid, "\(context): the tree is unbalanced, out of order or miscounted")
                #expect(spec.isAnswered(by: tree))
                #expect(spec.evaluate(node, index: tree) == spec.evaluate(node), "\(context)")
                #expect(
                    Tree.keys(spec.orderedChildren(node, index: tree)) == Tree.keys(spec.orderedChildren(node)),
                    "\(context)")
                // Change, add or remove a few children, as a write would.
                var changed = node
                var keys: [Key] = []
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    let key = Tree.key(QueryPropertyTests.keyPool.randomElement(using: &random) ?? "a")
                    let child = Bool.random(using: &random) ? QueryPropertyTests.randomChild(&random) : .empty
                    changed = changed.setting(child, at: Path(keys: [key]))
                    keys.append(key)
                }
                guard !changed.isLeaf else { break }
                tree = tree.updating(keys, old: node, new: changed)
                node = changed
            }
        }
    }

    @Test func aLargeListAnswersItsWindowFromTheIndex() throws {
        var children: [(String, Node)] = []
        for index in 0..<10_000 {
            children.append(("k\(index)", Tree.object([("score", Tree.leaf(.int(Int64((index * 7_919) % 10_007))))])))
        }
        let node = Tree.object(children)
        let index = QueryIndex.child(Path(keys: [Tree.key("score")]))
        let tree = IndexTree(node, index: index)
        #expect(tree.count == 10_000 && tree.isValid)
        let top = try QuerySpec(index: index, limit: .last(3))
        #expect(Tree.keys(top.orderedChildren(node, index: tree)) == Tree.keys(top.orderedChildren(node)))
    }
}
