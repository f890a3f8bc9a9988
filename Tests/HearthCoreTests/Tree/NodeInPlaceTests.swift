import HearthCore
import HearthTestKit
import Testing

/// `Node.set(_:at:)` and `setPriority(_:at:)` edit in place what a tree holds alone; they must give exactly what the
/// persistent `setting` and `settingPriority` give (already checked against a model in `NodePropertyTests`), leave
/// every version that shares nodes with the edited tree as it was, and never keep a stale cached hash.
@Suite struct NodeInPlaceTests {
    typealias Model = NodePropertyTests

    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func inPlaceWritesMatchPersistentWrites(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var edited = Node.empty
        var persistent = Node.empty
        var kept: [(node: Node, leaves: NodePropertyTests.LeafModel, hash: String)] = []
        for step in 0..<400 {
            let context = "seed \(seed) step \(step)"
            let path = Model.randomPath(depth: Int.random(in: 1...4, using: &random), &random)
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<55:
                let value = Node(Model.randomLeaf(&random))
                edited.set(value, at: path)
                persistent = persistent.setting(value, at: path)
            case 55..<70:
                edited.set(.empty, at: path)
                persistent = persistent.setting(.empty, at: path)
            case 70..<85:
                let value = Model.randomSubtree(levels: 4 - min(path.count, 3), &random)
                edited.set(value, at: path)
                persistent = persistent.setting(value, at: path)
            default:
                let priority: Priority? = Bool.random(using: &random) ? .int(Int64(step)) : nil
                edited.setPriority(priority, at: path)
                persistent = persistent.settingPriority(priority, at: path)
            }
            #expect(edited == persistent, "\(context): \(path)")
            #expect(NodePropertyTests.violation(in: edited) == nil, "\(context)")
            // Sometimes share the tree (as the read view does) or fill its hash caches (as a compare-and-set does).
            switch Int.random(in: 0..<10, using: &random) {
            case 0: kept.append((edited, NodePropertyTests.flatten(edited), edited.hash))
            case 1: #expect(edited.hash == persistent.hash, "\(context): hash")
            default: break
            }
        }
        #expect(edited.hash == persistent.hash, "seed \(seed): final hash")
        for (index, version) in kept.enumerated() {
            #expect(NodePropertyTests.flatten(version.node) == version.leaves, "seed \(seed): kept version \(index)")
            #expect(version.node.hash == version.hash, "seed \(seed): kept version \(index) hash")
        }
    }

    @Test func aSharedSubtreeIsCopiedNotChanged() {
        var tree = Node.empty
        for index in 0..<100 { tree.set(Node(.int(Int64(index))), at: Self.path("list", "k\(index)")) }
        let list = tree.node(at: Self.path("list"))
        tree.set(Node(.bool(true)), at: Self.path("list", "k5"))
        tree.set(.empty, at: Self.path("list", "k6"))
        #expect(list.child(Key(unchecked: "k5")) == Node(.int(5)))
        #expect(list.child(Key(unchecked: "k6")) == Node(.int(6)))
        #expect(list.childCount == 100)
        #expect(tree.node(at: Self.path("list")).childCount == 99)
    }

    /// A write below a leaf with a priority (its storage held by the tree alone, or shared with a kept version) turns
    /// the leaf into children that keep its priority, through `set` and through a write's one descent (`apply`); a
    /// delete below it changes nothing; the kept version still holds the leaf.
    @Test(arguments: [false, true])
    func writesBelowAPrioritisedLeafKeepItsPriority(shared: Bool) {
        let leaf = Node(.string("leaf"), priority: .int(4))
        func tree() -> Node {
            var tree = Node.empty
            tree.set(leaf, at: Self.path("a"))
            return tree
        }
        var edited = tree()
        var kept = shared ? edited : .empty
        edited.set(Node(.int(1)), at: Self.path("a", "b"))
        #expect(edited.node(at: Self.path("a", "b")) == Node(.int(1)))
        #expect(edited.node(at: Self.path("a")).priority == .int(4))
        var applied = tree()
        if shared { kept = applied }
        applied.apply([.set(Self.path("a", "b"), Node(.int(1))), .set(Self.path("a", "c"), Node(.int(2)))])
        #expect(applied.node(at: Self.path("a")).childCount == 2)
        #expect(applied.node(at: Self.path("a")).priority == .int(4))
        var deleted = tree()
        if shared { kept = deleted }
        deleted.set(.empty, at: Self.path("a", "b"))
        deleted.apply([.set(Self.path("a", "b"), .empty), .set(Self.path("a", "c"), .empty)])
        #expect(deleted.node(at: Self.path("a")) == leaf)
        if shared { #expect(kept.node(at: Self.path("a")) == leaf) }
    }

    static func path(_ keys: String...) -> Path {
        Path(keys: keys.map { Key(unchecked: $0) })
    }

    @Test func removingTheLastChildLeavesNothing() {
        var tree = Node.empty
        tree.set(Node(.int(1)), at: Self.path("a", "b"))
        tree.setPriority(.int(3), at: Self.path("a"))
        tree.set(.empty, at: Self.path("a", "b"))
        #expect(tree.isEmpty)
    }
}
