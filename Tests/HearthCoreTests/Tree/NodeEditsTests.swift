import HearthCore
import HearthTestKit
import Testing

/// `Node.apply(_:)` applies a write's edits in one descent; it must give exactly what applying them one after another
/// in order gives (values, priorities and hashes), over random trees and random sets of edits, and leave every
/// version sharing nodes with the edited tree as it was.
@Suite struct NodeEditsTests {
    typealias Model = NodePropertyTests

    /// Few first-level keys, so edits share their upper levels (and sometimes collide) often.
    static let upperKeys: [Key] = ["p", "q", "7", "r"].map { Tree.key($0) }

    static func randomPath(_ random: inout SeededRandom) -> Path {
        var keys = [Self.upperKeys[Int.random(in: 0..<Self.upperKeys.count, using: &random)]]
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            keys.append(Model.innerKeys[Int.random(in: 0..<Model.innerKeys.count, using: &random)])
        }
        return Path(keys: keys)
    }

    static func randomEdit(_ random: inout SeededRandom) -> TreeEdit {
        let path = Self.randomPath(&random)
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<35: return .set(path, Node(Model.randomLeaf(&random)))
        case 35..<60: return .set(path, .empty)
        case 60..<80: return .set(path, Model.randomSubtree(levels: 3, &random))
        default:
            let priority: Priority? = Bool.random(using: &random) ? .int(Int64.random(in: 0...9, using: &random)) : nil
            return .setPriority(path, priority)
        }
    }

    /// Edits of which none lies at or below another, most of the time; overlapping ones otherwise.
    static func randomEdits(_ random: inout SeededRandom) -> [TreeEdit] {
        var edits: [TreeEdit] = []
        for _ in 0..<Int.random(in: 1...6, using: &random) {
            let edit = Self.randomEdit(&random)
            let overlaps = edits.contains { $0.path.contains(edit.path) || edit.path.contains($0.path) }
            if !overlaps || Int.random(in: 0..<8, using: &random) == 0 { edits.append(edit) }
        }
        return edits
    }

    /// Random edits of random trees, sometimes shared, give the same values, priorities and hashes both ways.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func oneDescentMatchesEditsInOrder(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var descended = Node.empty
        var ordered = Node.empty
        var kept: [(node: Node, hash: String)] = []
        for step in 0..<400 {
            let edits = Self.randomEdits(&random)
            // Sometimes share the tree (as the read view does), so the edits copy what they reach; else they edit
            // it in place.
            if Int.random(in: 0..<4, using: &random) == 0 { kept.append((descended, descended.hash)) }
            descended.apply(edits)
            for edit in edits { edit.apply(to: &ordered) }
            #expect(descended == ordered, "seed \(seed) step \(step): \(edits)")
            #expect(NodePropertyTests.violation(in: descended) == nil, "seed \(seed) step \(step)")
            #expect(descended.hash == ordered.hash, "seed \(seed) step \(step): hash")
            // Sometimes give priorities to the upper nodes, so deletes and adds meet below one.
            if Int.random(in: 0..<5, using: &random) == 0 {
                let path = Path(keys: [Self.upperKeys[Int.random(in: 0..<Self.upperKeys.count, using: &random)]])
                descended.setPriority(.string("s\(step)"), at: path)
                ordered.setPriority(.string("s\(step)"), at: path)
            }
        }
        for (index, version) in kept.enumerated() {
            #expect(version.node.hash == version.hash, "seed \(seed): kept version \(index) changed")
        }
    }

    /// A prioritised node that deletes empty before an add is made anew without its priority; one added to first
    /// keeps it.
    @Test func deletesThatEmptyAPrioritisedNodeBeforeAnAddDropItsPriority() {
        var tree = Node.empty
        tree.set(Node(.int(1)), at: Self.path("a", "b"))
        tree.setPriority(.int(3), at: Self.path("a"))
        var emptiedFirst = tree
        emptiedFirst.apply([.set(Self.path("a", "b"), .empty), .set(Self.path("a", "c"), Node(.int(2)))])
        #expect(emptiedFirst.node(at: Self.path("a")).priority == nil)
        #expect(emptiedFirst.node(at: Self.path("a", "c")) == Node(.int(2)))
        var addedFirst = tree
        addedFirst.apply([.set(Self.path("a", "c"), Node(.int(2))), .set(Self.path("a", "b"), .empty)])
        #expect(addedFirst.node(at: Self.path("a")).priority == .int(3))
        #expect(addedFirst.node(at: Self.path("a")).childCount == 1)
    }

    /// Writes below a leaf turn it into children that keep its priority; deletes below it leave it as it was.
    @Test func writesBelowALeafKeepItsPriorityAndDeletesBelowItChangeNothing() {
        var tree = Node.empty
        tree.set(Node(.string("leaf"), priority: .int(4)), at: Self.path("a"))
        var deleted = tree
        deleted.apply([.set(Self.path("a", "x"), .empty), .set(Self.path("a", "y"), .empty)])
        #expect(deleted == tree)
        var added = tree
        added.apply([.set(Self.path("a", "x"), Node(.int(1))), .set(Self.path("a", "y"), .empty)])
        #expect(added.node(at: Self.path("a")).priority == .int(4))
        #expect(added.node(at: Self.path("a", "x")) == Node(.int(1)))
    }

    /// Edits in a map larger than one B+tree leaf, shared with another version, leave that version as it was.
    @Test func editsInALargeSharedMapCopyOnlyWhatTheyReach() {
        var tree = Node.empty
        for index in 0..<200 { tree.set(Node(.int(Int64(index))), at: Self.path("list", "k\(index)")) }
        let shared = tree
        tree.apply([
            .set(Self.path("list", "k5"), .empty), .set(Self.path("list", "k150", "x"), Node(.bool(true))),
            .setPriority(Self.path("list", "k7"), .int(1)), .set(Self.path("list", "new"), Node(.int(-1))),
        ])
        var ordered = shared
        ordered.set(.empty, at: Self.path("list", "k5"))
        ordered.set(Node(.bool(true)), at: Self.path("list", "k150", "x"))
        ordered.setPriority(.int(1), at: Self.path("list", "k7"))
        ordered.set(Node(.int(-1)), at: Self.path("list", "new"))
        #expect(tree == ordered)
        #expect(shared.node(at: Self.path("list")).childCount == 200)
        #expect(shared.node(at: Self.path("list", "k5")) == Node(.int(5)))
        #expect(NodePropertyTests.violation(in: tree) == nil)
    }

    static func path(_ keys: String...) -> Path {
        Path(keys: keys.map { Key(unchecked: $0) })
    }
}
