import HearthCore
import HearthTestKit
import Testing

/// A tree written as a shard's is, a snapshot published every few writes (the write loop publishes one per turn), must
/// hold exactly what a simple model says after every write: each write copies the nodes it reaches that a snapshot
/// shares (small maps' arrays, B+tree nodes) and edits the rest in place, and no snapshot ever changes.
@Suite struct NodeSharedWriteTests {
    /// What the star workload's tree holds: for each post, the users who starred it.
    typealias Model = [Int: Set<Int>]

    /// The tree the model describes: `posts/pN` with `author`, `starCount` and a `stars` map of `uM: true`.
    static func build(_ model: Model) -> Node {
        var tree = Node.empty
        for (post, users) in model {
            let base = ["posts", "p\(post)"]
            tree.set(Node(.string("a\(post % 3)")), at: Self.path(base + ["author"]))
            tree.set(Node(.int(Int64(users.count))), at: Self.path(base + ["starCount"]))
            for user in users { tree.set(Node(.bool(true)), at: Self.path(base + ["stars", "u\(user)"])) }
        }
        return tree
    }

    /// Star and unstar writes (the flag and the count together, as one shard's part of a star) match the model,
    /// over stars maps that grow past one B+tree leaf and shrink back, with snapshots kept and checked at the end.
    @Test(arguments: Array(1...12) as [UInt64])
    func starWritesToASharedTreeMatchTheModel(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var model: Model = [:]
        for post in 0..<4 { model[post] = [] }
        var tree = Self.build(model)
        var snapshots: [(node: Node, model: Model)] = []
        let users = [20, 40, 90, 300][Int(seed % 4)]
        for step in 0..<600 {
            let post = Int.random(in: 0..<4, using: &random)
            let user = Int.random(in: 0..<users, using: &random)
            let starring = !(model[post]?.contains(user) ?? false)
            if starring { model[post, default: []].insert(user) } else { model[post, default: []].remove(user) }
            let base = ["posts", "p\(post)"]
            tree.apply([
                .set(Self.path(base + ["stars", "u\(user)"]), starring ? Node(.bool(true)) : .empty),
                .set(Self.path(base + ["starCount"]), Node(.int(Int64(model[post]?.count ?? 0)))),
            ])
            if Int.random(in: 0..<3, using: &random) == 0 { snapshots.append((tree, model)) }
            if step % 50 == 0 {
                #expect(tree == Self.build(model), "seed \(seed) step \(step)")
                #expect(NodePropertyTests.violation(in: tree) == nil, "seed \(seed) step \(step)")
            }
        }
        #expect(tree == Self.build(model), "seed \(seed): final")
        #expect(tree.hash == Self.build(model).hash, "seed \(seed): final hash")
        for (index, snapshot) in snapshots.enumerated() where index % 7 == 0 {
            #expect(snapshot.node == Self.build(snapshot.model), "seed \(seed): snapshot \(index) changed")
        }
    }

    /// Single-path writes (`set(_:at:)`) to a shared tree, inserting and removing around a small map's size limit,
    /// match the persistent `setting` and leave the shared version as it was.
    @Test(arguments: Array(1...12) as [UInt64])
    func singleWritesToASharedTreeMatchPersistentWrites(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var edited = Node.empty
        var persistent = Node.empty
        var snapshots: [(edited: Node, persistent: Node)] = []
        for step in 0..<800 {
            let path = Self.path([
                "m\(Int.random(in: 0..<3, using: &random))", "k\(Int.random(in: 0..<70, using: &random))",
            ])
            let value = Int.random(in: 0..<3, using: &random) == 0 ? Node.empty : Node(.int(Int64(step)))
            edited.set(value, at: path)
            persistent = persistent.setting(value, at: path)
            #expect(edited == persistent, "seed \(seed) step \(step): \(path)")
            if Int.random(in: 0..<4, using: &random) == 0 { snapshots.append((edited, persistent)) }
        }
        #expect(NodePropertyTests.violation(in: edited) == nil, "seed \(seed)")
        for (index, snapshot) in snapshots.enumerated() {
            #expect(snapshot.edited == snapshot.persistent, "seed \(seed): snapshot \(index) changed")
        }
    }

    static func path(_ keys: [String]) -> Path {
        Path(keys: keys.map { Key(unchecked: $0) })
    }
}
