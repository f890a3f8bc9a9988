import HearthCore
import HearthTestKit
import Testing

@testable import HearthDatabase
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

    /// The commit feed removes a change it never added (an arriving entry shown at once): nothing else moves.
    @Test func removingAChangeNeverAddedChangesNothing() {
        var queued = QueuedPaths()
        queued.add(Self.change(["posts/p1/stars/u1"]), at: 4)
        queued.remove(Self.change(["posts/p1/stars/u2", "posts/p1"], increments: ["posts/p1/starCount"]), at: 7)
        queued.remove(Self.change(["elsewhere/x"], namespace: "other"), at: 8)
        #expect(queued.blocks(Self.change(["posts/p1/stars/u1"]), at: 9))
        #expect(queued.blocks(Self.change(["posts"]), at: 9), "the levels above the queued change are kept")
        #expect(!queued.blocks(Self.change(["posts/p1/stars/u2"]), at: 9))
        queued.remove(Self.change(["posts/p1/stars/u1"]), at: 4)
        #expect(!queued.blocks(Self.change(["posts"]), at: 9), "and go once it leaves")
    }

    @Test func aChangeDoesNotHoldItself() {
        var queued = QueuedPaths()
        let star = Self.change(["posts/p1/stars/u1", "posts/p1"], increments: ["posts/p1/starCount"])
        queued.add(star, at: 3)
        #expect(!queued.blocks(star, at: 3))
        #expect(queued.blocks(star, at: 4))
    }

    /// Random changes added and removed in index order and out of it: every question is answered as a scan of
    /// everything queued would answer it.
    @Test(arguments: 0..<20 as Range<UInt64>) func answersAsAScanOfTheQueueWould(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let paths = ["", "a", "a/b", "a/b/c", "a/d", "x", "x/y"]
        func randomChange() -> ShardChange {
            var sets: [String] = []
            var increments: [String] = []
            for path in paths.shuffled(using: &random).prefix(Int.random(in: 1...2, using: &random)) {
                if Bool.random(using: &random) { sets.append(path) } else { increments.append(path) }
            }
            return Self.change(sets, increments: increments, namespace: Bool.random(using: &random) ? "n" : "m")
        }
        func overlaps(_ queued: ShardChange, _ change: ShardChange) -> Bool {
            guard queued.namespace == change.namespace else { return false }
            return queued.mutations.contains { earlier in
                change.mutations.contains { later in
                    if earlier.path == later.path {
                        return queued.increments[earlier.path] == nil || change.increments[later.path] == nil
                    }
                    return earlier.path.contains(later.path) || later.path.contains(earlier.path)
                }
            }
        }
        var queued = QueuedPaths()
        var model: [UInt64: ShardChange] = [:]
        for index in 1...300 as ClosedRange<UInt64> {
            let change = randomChange()
            queued.add(change, at: index)
            model[index] = change
            if let gone = model.keys.randomElement(using: &random), Int.random(in: 0..<3, using: &random) > 0,
                let left = model.removeValue(forKey: gone)
            {
                queued.remove(left, at: gone)
            }
            let question = randomChange()
            let at = UInt64.random(in: 1...(index + 1), using: &random)
            let expected = model.contains { $0.key < at && overlaps($0.value, question) }
            #expect(queued.blocks(question, at: at) == expected, "seed \(seed), entry \(index)")
        }
    }
}
