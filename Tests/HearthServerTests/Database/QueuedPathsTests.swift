import HearthCore
import Testing

@testable import HearthServer

/// The index of queued changes by path: an earlier overlapping change holds a later one (the same path, an ancestor
/// or a descendant), a later one never does, two increments of one counter commute, namespaces are apart, and a
/// change that left the queue holds nothing.
@Suite struct QueuedPathsTests {
    private static func change(_ paths: [String], increments: [String] = [], namespace: String = "n") -> ShardChange {
        let all = paths + increments
        return ShardChange(
            namespace: namespace, mutations: all.map { .set(Fixture.path($0), Node(.int(1))) },
            increments: Dictionary(uniqueKeysWithValues: increments.map { (Fixture.path($0), LeafValue.int(1)) }))
    }

    @Test func anEarlierOverlappingChangeHoldsALaterOne() {
        var queued = QueuedPaths()
        queued.add(Self.change(["posts/p1/stars/u1"]), at: 5)
        #expect(queued.blocks(Self.change(["posts/p1/stars/u1"]), at: 6))
        #expect(queued.blocks(Self.change(["posts/p1"]), at: 6), "an ancestor")
        #expect(queued.blocks(Self.change(["posts/p1/stars/u1/at"]), at: 6), "a descendant")
        #expect(!queued.blocks(Self.change(["posts/p1/stars/u2"]), at: 6), "a sibling")
        #expect(!queued.blocks(Self.change(["posts/p1/stars/u1"]), at: 4), "a later change holds nothing")
        #expect(!queued.blocks(Self.change(["posts/p1/stars/u1"], namespace: "other"), at: 6))
    }

    @Test func incrementsOfOneCounterCommute() {
        var queued = QueuedPaths()
        queued.add(Self.change([], increments: ["posts/p1/starCount"]), at: 1)
        #expect(!queued.blocks(Self.change([], increments: ["posts/p1/starCount"]), at: 2))
        #expect(queued.blocks(Self.change(["posts/p1/starCount"]), at: 2), "a set after an increment waits")
        queued.add(Self.change(["posts/p1/starCount"]), at: 2)
        #expect(queued.blocks(Self.change([], increments: ["posts/p1/starCount"]), at: 3), "an increment after a set")
    }

    @Test func aChangeThatLeftHoldsNothing() {
        var queued = QueuedPaths()
        let first = Self.change(["a/b"], increments: ["a/c"])
        queued.add(first, at: 1)
        queued.add(Self.change(["x"]), at: 2)
        #expect(queued.blocks(Self.change(["a"]), at: 3))
        queued.remove(first, at: 1)
        #expect(!queued.blocks(Self.change(["a"]), at: 3))
        #expect(queued.blocks(Self.change(["x/y"]), at: 3))
    }

    @Test func aChangeDoesNotHoldItself() {
        var queued = QueuedPaths()
        let star = Self.change(["posts/p1/stars/u1", "posts/p1"], increments: ["posts/p1/starCount"])
        queued.add(star, at: 3)
        #expect(!queued.blocks(star, at: 3))
        #expect(queued.blocks(star, at: 4))
    }
}
