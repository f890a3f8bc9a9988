import HearthCore
import HearthTestKit
import Testing

@testable import HearthDatabase

/// The shard-depth subtrees a write's resolved mutations touch (`ShardStateMachine.subtrees(touchedBy:)`): one per
/// subtree, in the order first touched, each with its node of the tree after the write.
@Suite struct ShardSubtreesTests {
    /// Mutations below one subtree note it once; keys are told apart by their bytes, as paths are.
    @Test func eachSubtreeIsNotedOnceByItsKeys() throws {
        let tree = try Fixture.node(#"{"posts":{"p1":{"starCount":2,"stars":{"u9":true}},"é":1}}"#)
        let mutations: [ResolvedMutation] = [
            .set(Fixture.path("posts/p1/stars/u9"), Node(.bool(true))),
            .set(Fixture.path("posts/p1/starCount"), Node(.int(2))),
            .set(Fixture.path("posts/e\u{301}/n"), Node(.int(1))),
            .setPriority(Fixture.path("posts/é"), .int(1)),
            .set(Fixture.path("posts/p1"), Node(.int(3))),
        ]
        var recent = RecentSubtreePaths()
        let subtrees = ShardStateMachine.subtrees(touchedBy: mutations, in: tree, spineDepth: 2, reusing: &recent)
        #expect(subtrees?.map(\.path) == ["posts/p1", "posts/e\u{301}", "posts/é"].map(Fixture.path))
        #expect(subtrees?.first?.node == tree.node(at: Fixture.path("posts/p1")))
        #expect(subtrees?.last?.node == Node(.int(1)))
        let deferred = ShardStateMachine.subtrees(touchedBy: mutations, in: nil, spineDepth: 2, reusing: &recent)
        #expect(deferred?.map(\.path) == subtrees?.map(\.path))
        #expect(deferred?.allSatisfy { $0.node == nil } == true)
    }

    /// A mutation on the spine (shallower than the shard depth) has no subtree: the write is not a shard's alone.
    @Test func aSpineMutationHasNone() throws {
        let mutations: [ResolvedMutation] = [
            .set(Fixture.path("posts/p1/starCount"), Node(.int(1))),
            .set(Fixture.path("posts"), Node(.int(1))),
        ]
        var recent = RecentSubtreePaths()
        #expect(ShardStateMachine.subtrees(touchedBy: mutations, in: .empty, spineDepth: 2, reusing: &recent) == nil)
    }

    /// A later write below a subtree a recent write named is named by that very path (its keys' storage shared,
    /// no array made), and a path of the same keys from another array is told apart by nothing but storage.
    @Test func aSubtreeNamedLatelyIsNamedByTheSamePath() throws {
        var recent = RecentSubtreePaths()
        let first = ShardStateMachine.subtrees(
            touchedBy: [.set(Fixture.path("posts/p1/stars/u9"), Node(.bool(true)))], in: nil, spineDepth: 2,
            reusing: &recent)
        let second = ShardStateMachine.subtrees(
            touchedBy: [.set(Fixture.path("posts/p1/starCount"), Node(.int(2)))], in: nil, spineDepth: 2,
            reusing: &recent)
        let (a, b) = try (#require(first?.first?.path), #require(second?.first?.path))
        #expect(a == Fixture.path("posts/p1") && b == a)
        #expect(Self.storage(of: a) == Self.storage(of: b))
    }

    /// Over seeded random writes into more subtrees than are kept, every subtree is named by exactly the first
    /// keys of its mutations' paths, as cut from each path alone, in the order first touched, whatever was kept.
    @Test(arguments: [UInt64(1), 2, 3])
    func keptPathsNameEverySubtreeAsCutAlone(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var recent = RecentSubtreePaths()
        // Keys of 1 to 25 bytes, so both small and heap strings; two share a long prefix.
        let keys = [
            "a", "b", "posts", "user-posts", "r1a2b3c4d-p7", "r1a2b3c4d-p70", "é", "e\u{301}",
            "a-key-longer-than-fifteen",
        ].map { Key(unchecked: $0) }
        for _ in 0..<3_000 {
            let mutations: [ResolvedMutation] = (0..<Int.random(in: 1...4, using: &random)).map { _ in
                let depth = Int.random(in: 3...5, using: &random)
                let path = Path(keys: (0..<depth).map { _ in keys[Int.random(in: 0..<keys.count, using: &random)] })
                return .set(path, Node(.int(1)))
            }
            var expected: [Path] = []
            for mutation in mutations where !expected.contains(where: { $0.contains(mutation.path) }) {
                expected.append(Path(keys: Array(mutation.path.keys.prefix(2))))
            }
            let subtrees = ShardStateMachine.subtrees(touchedBy: mutations, in: nil, spineDepth: 2, reusing: &recent)
            #expect(subtrees?.map(\.path) == expected)
        }
    }

    /// Where a path's keys are stored.
    private static func storage(of path: Path) -> UnsafeRawPointer? {
        path.keys.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }
    }
}
