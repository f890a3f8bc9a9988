import HearthCore
import HearthTestKit
import Testing

/// `Node.node(at:)`, which borrows each level it passes, against the plain walk of one `child(_:)` per key.
@Suite struct NodeWalkTests {
    /// Keys of every order class, few enough that random paths often hit and often miss.
    static let keys: [Key] = ["a", "b", "0", "7", "-3", "012", "x y", "zz"].map(Tree.key)

    /// The walk the borrowing one replaces: one child per key, stopping at the first empty node.
    static func reference(_ root: Node, _ path: [Key]) -> Node {
        var current = root
        for key in path {
            current = current.child(key)
            if current.isEmpty { return .empty }
        }
        return current
    }

    /// A random leaf of every representation: inline integers and booleans, boxed doubles, large integers and
    /// strings, and stored leaves with a priority.
    static func leaf(_ random: inout SeededRandom) -> Node {
        let priority: Priority? = Int.random(in: 0..<4, using: &random) == 0 ? .int(7) : nil
        switch Int.random(in: 0..<5, using: &random) {
        case 0: return Node(.int(Int64.random(in: -5...5, using: &random)), priority: priority)
        case 1: return Node(.bool(Bool.random(using: &random)), priority: priority)
        case 2: return Node(.double(0.5), priority: priority)
        case 3: return Node(.int(Int64.max - 1), priority: priority)
        default: return Node(.string("s\(Int.random(in: 0..<9, using: &random))"), priority: priority)
        }
    }

    /// A random tree `depth` levels deep at most: small maps, big maps (B+trees of up to 300 children, whose keys
    /// include `keys`), leaves and priorities on maps.
    static func tree(_ random: inout SeededRandom, depth: Int) -> Node {
        if depth == 0 || Int.random(in: 0..<4, using: &random) == 0 { return Self.leaf(&random) }
        var chosen: [Key: Node] = [:]
        for key in Self.keys where Bool.random(using: &random) {
            chosen[key] = Self.tree(&random, depth: depth - 1)
        }
        if Int.random(in: 0..<3, using: &random) == 0 {
            for index in 0..<Int.random(in: 20..<300, using: &random) {
                chosen[Tree.key("k\(index)")] = Self.leaf(&random)
            }
        }
        let elements = chosen.sorted { $0.key < $1.key }.map { (key: $0.key, node: $0.value) }
        let priority: Priority? = Bool.random(using: &random) ? .string("p") : nil
        return Node(children: ChildMap(sortedUniqueElements: elements), priority: priority)
    }

    /// A random path of up to five keys: mostly the trees' own keys, sometimes one of a big map's (or one past them).
    static func path(_ random: inout SeededRandom) -> [Key] {
        (0..<Int.random(in: 0..<6, using: &random)).map { _ in
            Int.random(in: 0..<5, using: &random) == 0
                ? Tree.key("k\(Int.random(in: 0..<320, using: &random))")
                : Self.keys[Int.random(in: 0..<Self.keys.count, using: &random)]
        }
    }

    /// Over seeded random trees and paths (present, missing, through leaves, into big maps, and the empty path), the
    /// borrowing walk returns the very node (the same storage) the plain walk does.
    @Test func matchesThePlainWalk() {
        var random = SeededRandom(seed: 35)
        for _ in 0..<200 {
            let root = Self.tree(&random, depth: 4)
            for _ in 0..<100 {
                let path = Self.path(&random)
                let found = root.node(at: Path(keys: path))
                let expected = Self.reference(root, path)
                #expect(found.isIdentical(to: expected))
                #expect(found == expected)
            }
        }
    }

    /// The first leaf among the first `levels` nodes on the way of `keys` (this node first) by the plain walk of
    /// one `child(_:)` per key: how many keys lead to it, or nil.
    static func referenceLeafDepth(_ root: Node, _ keys: [Key], levels: Int) -> Int? {
        var current = root
        for depth in 0..<levels {
            if current.isLeaf { return depth }
            guard depth < keys.count, !current.isEmpty else { return nil }
            current = current.child(keys[depth])
        }
        return nil
    }

    /// Over seeded random trees and paths, `leafDepth(along:levels:)` (which borrows each level) finds the leaf the
    /// plain walk finds, for every number of levels up to the path's nodes.
    @Test func leafDepthMatchesThePlainWalk() {
        var random = SeededRandom(seed: 3535)
        for _ in 0..<200 {
            let root = Self.tree(&random, depth: 4)
            for _ in 0..<50 {
                let path = Self.path(&random)
                for levels in 0...path.count + 1 {
                    #expect(
                        root.leafDepth(along: path, levels: levels)
                            == Self.referenceLeafDepth(root, path, levels: levels))
                }
            }
        }
    }

    /// A leaf (inline, boxed or stored with a priority) is found at its own depth, and nothing past an absent node.
    @Test func leafDepthOfLeavesAndAbsentNodes() {
        let (a, b) = (Tree.key("a"), Tree.key("b"))
        #expect(Node(.int(3)).leafDepth(along: [a], levels: 1) == 0)
        #expect(Node(.string("s"), priority: .int(1)).leafDepth(along: [a], levels: 2) == 0)
        #expect(Node.empty.leafDepth(along: [a], levels: 2) == nil)
        let tree = Node.empty.setting(Node(.double(0.5), priority: .int(2)), at: Path(keys: [a, b]))
        #expect(tree.leafDepth(along: [a, b], levels: 3) == 2)
        #expect(tree.leafDepth(along: [a, b], levels: 2) == nil)
        #expect(tree.leafDepth(along: [b, a], levels: 3) == nil)
        #expect(tree.leafDepth(along: [a, b], levels: 0) == nil)
    }

    /// A leaf and the empty node have nothing below them, and the empty path is the node itself.
    @Test func leavesAndEmptyPaths() {
        let leaf = Node(.int(3))
        #expect(leaf.node(at: Path(keys: [Tree.key("a")])).isEmpty)
        #expect(Node.empty.node(at: Path(keys: [Tree.key("a")])).isEmpty)
        #expect(leaf.node(at: Path(keys: [])).isIdentical(to: leaf))
    }
}
