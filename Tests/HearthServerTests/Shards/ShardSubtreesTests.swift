import HearthCore
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
        let subtrees = ShardStateMachine.subtrees(touchedBy: mutations, in: tree, spineDepth: 2)
        #expect(subtrees?.map(\.path) == ["posts/p1", "posts/e\u{301}", "posts/é"].map(Fixture.path))
        #expect(subtrees?.first?.node == tree.node(at: Fixture.path("posts/p1")))
        #expect(subtrees?.last?.node == Node(.int(1)))
        let deferred = ShardStateMachine.subtrees(touchedBy: mutations, in: nil, spineDepth: 2)
        #expect(deferred?.map(\.path) == subtrees?.map(\.path))
        #expect(deferred?.allSatisfy { $0.node == nil } == true)
    }

    /// A mutation on the spine (shallower than the shard depth) has no subtree: the write is not a shard's alone.
    @Test func aSpineMutationHasNone() throws {
        let mutations: [ResolvedMutation] = [
            .set(Fixture.path("posts/p1/starCount"), Node(.int(1))),
            .set(Fixture.path("posts"), Node(.int(1))),
        ]
        #expect(ShardStateMachine.subtrees(touchedBy: mutations, in: .empty, spineDepth: 2) == nil)
    }
}
