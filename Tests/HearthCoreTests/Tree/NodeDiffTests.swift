import HearthCore
import HearthTestKit
import Testing

@Suite struct NodeDiffTests {
    private static func path(_ text: String) -> Path {
        Path(keys: text.split(separator: "/").map { Key(unchecked: String($0)) })
    }

    private static func applying(_ changes: [(path: Path, node: Node)], to old: Node) -> Node {
        changes.reduce(old) { $0.setting($1.node, at: $1.path) }
    }

    /// A transaction's put of a whole post that toggled one star: two leaves change, and nothing else is listed.
    @Test func aStarToggleIsTwoLeaves() {
        let stars = Tree.object((0..<100).map { ("u\($0)", Tree.leaf(.bool(true))) })
        let old = Tree.object([
            ("author", Tree.leaf(.string("ada"))), ("starCount", Tree.leaf(.int(100))), ("stars", stars),
        ])
        let new = old.setting(Tree.leaf(.int(99)), at: Self.path("starCount")).setting(
            .empty, at: Self.path("stars/u42"))
        let changes = new.changes(from: old, limit: 32)
        #expect(changes?.map(\.path) == [Self.path("starCount"), Self.path("stars/u42")])
        #expect(changes?.map(\.node) == [Tree.leaf(.int(99)), .empty])
    }

    /// Equal trees give no writes, also when they share nothing.
    @Test func equalTreesGiveNoWrites() {
        let tree = Tree.object([("a", Tree.object([("b", Tree.leaf(.int(1)))]))])
        let copy = Tree.object([("a", Tree.object([("b", Tree.leaf(.int(1)))]))])
        #expect(copy.changes(from: tree, limit: 4)?.isEmpty == true)
    }

    /// Leaves, empty nodes, a priority that changed and more writes than the limit need the whole value.
    @Test func whatCannotBeSaidAsWritesIsNil() {
        let map = Tree.object([("a", Tree.leaf(.int(1))), ("b", Tree.leaf(.int(2)))])
        #expect(Tree.leaf(.int(1)).changes(from: map, limit: 8) == nil)
        #expect(map.changes(from: Tree.leaf(.int(1)), limit: 8) == nil)
        #expect(map.changes(from: .empty, limit: 8) == nil)
        #expect(Node.empty.changes(from: map, limit: 8) == nil)
        let prioritised = Tree.object([("a", Tree.leaf(.int(1))), ("b", Tree.leaf(.int(2)))], priority: .int(1))
        #expect(prioritised.changes(from: map, limit: 8) == nil)
        let changedBoth = Tree.object([("a", Tree.leaf(.int(3))), ("b", Tree.leaf(.int(4)))])
        #expect(changedBoth.changes(from: map, limit: 1) == nil)
        #expect(changedBoth.changes(from: map, limit: 2)?.count == 2)
    }

    /// Counting nodes counts every map and leaf, and stops at the cap.
    @Test func nodeCountsStopAtTheCap() {
        let tree = Tree.object([("a", Tree.object([("b", Tree.leaf(.int(1))), ("c", Tree.leaf(.int(2)))]))])
        #expect(tree.nodeCount(upTo: 100) == 4)
        #expect(tree.nodeCount(upTo: 2) == 2)
        #expect(Node.empty.nodeCount(upTo: 100) == 0)
    }

    /// A child whose priority changed is written whole, one level down.
    @Test func aChildWithANewPriorityIsWrittenWhole() {
        let old = Tree.object([("a", Tree.object([("x", Tree.leaf(.int(1)))]))])
        let child = Tree.object([("x", Tree.leaf(.int(1)))], priority: .string("p"))
        let new = Tree.object([("a", child)])
        let changes = new.changes(from: old, limit: 8)
        #expect(changes?.map(\.path) == [Self.path("a")])
        #expect(changes?.first?.node == child)
    }

    /// For random trees and random edits of them: the writes, applied to the old tree, give the new one; their paths
    /// are disjoint and never the root; and there are no more than the limit.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8]) func writesTurnTheOldTreeIntoTheNew(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        for _ in 0..<50 {
            let old = NodeBinaryTests.randomNode(depth: 0, &random)
            var new = old
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                var keys: [Key] = []
                var at = new
                while let child = Array(at.children).randomElement(using: &random), Bool.random(using: &random) {
                    keys.append(child.key)
                    at = child.node
                }
                keys.append(Key(unchecked: "n\(Int.random(in: 0..<3, using: &random))"))
                let path = Path(keys: Bool.random(using: &random) ? keys : Array(keys.dropLast()))
                let value =
                    Int.random(in: 0..<3, using: &random) == 0
                    ? .empty
                    : NodeBinaryTests.randomNode(
                        depth: 3, &random)
                new = path.keys.isEmpty ? new : new.setting(value, at: path)
            }
            let limit = Int.random(in: 1...40, using: &random)
            guard let changes = new.changes(from: old, limit: limit) else { continue }
            #expect(changes.count <= limit)
            #expect(Self.applying(changes, to: old) == new)
            let paths = changes.map(\.path)
            #expect(!paths.contains(.root))
            for (index, path) in paths.enumerated() {
                #expect(!paths[(index + 1)...].contains { $0.contains(path) || path.contains($0) })
            }
        }
    }
}
