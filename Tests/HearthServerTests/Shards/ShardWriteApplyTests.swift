import HearthCore
import HearthTestKit
import HearthWire
import Testing

@testable import HearthDatabase

/// A shard resolves a write once (the overflow check's read is the resolution's) and applies it in one descent; both
/// must give exactly what the per-mutation way gave: check every increment, resolve each mutation against the tree
/// before the write, then apply them one after another. Random trees and writes, with deletes that prune parents,
/// priorities, and increments on missing, non-numeric, huge and overflowing values.
@Suite struct ShardWriteApplyTests {
    private static let values = [
        "1", "-2", "2.5", #""text""#, "true", "null", "1e308", "-1e308", "9223372036854775807",
        #"{"x":1,"y":{"z":"q"}}"#,
        #"{"n":5,".priority":3}"#, #"{".value":7,".priority":"p"}"#,
    ]
    private static let serverValues = [
        #"{".sv":{"increment":1}}"#, #"{".sv":{"increment":-3.5}}"#, #"{".sv":{"increment":1e308}}"#,
        #"{".sv":{"increment":9223372036854775807}}"#, #"{".sv":"timestamp"}"#,
        #"{"k":{".sv":{"increment":2}},"m":1}"#,
    ]

    private static let mutations = RandomShardMutations(
        values: Self.values, serverValues: Self.serverValues, plainSets: 5)

    /// The per-mutation way: refused whole when an increment overflows, else each mutation resolved against the
    /// tree before the write and applied in turn.
    private static func reference(_ write: ShardWrite, on tree: inout Node) -> [ResolvedMutation]? {
        for mutation in write.mutations {
            switch mutation {
            case .set(let path, let value):
                if value.unrepresentableIncrement(existing: tree.node(at: path)) != nil { return nil }
            case .setPriority(let path, let value):
                let existing = Node(priorityValue: tree.node(at: path).priority)
                if value.unrepresentableIncrement(existing: existing) != nil { return nil }
            }
        }
        let resolved = write.mutations.map { ShardStateMachine.resolve($0, in: tree, now: write.now) }
        for mutation in resolved { mutation.apply(to: &tree) }
        return resolved
    }

    /// Random writes resolve, refuse and apply as the per-mutation way does, and leave kept versions as they were.
    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func aWriteAppliesAsItsMutationsInOrder(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        var machine = ShardStateMachine(shard: 0, spineDepth: 1)
        var tree = Node.empty
        var kept: [(machine: ShardStateMachine, hash: String)] = []
        for step in 0..<300 {
            let mutations = try (0..<Int.random(in: 1...5, using: &random)).map { _ in
                try Self.mutations.mutation(&random)
            }
            let write = ShardWrite(namespace: "default", mutations: mutations, now: Int64(step))
            // Sometimes keep the machine as it was (as a leader's restore point or the read view would), so the
            // write copies what it reaches.
            if Int.random(in: 0..<4, using: &random) == 0 {
                kept.append((machine, machine.node(namespace: "default", at: .root).hash))
            }
            let expected = Self.reference(write, on: &tree)
            switch machine.write(write, conditions: []) {
            case .appended(_, let applied):
                guard case .write(let change) = applied.effect else {
                    Issue.record("seed \(seed) step \(step): applied as \(applied.effect)")
                    return
                }
                #expect(change.mutations == expected, "seed \(seed) step \(step): \(mutations)")
            case .unrepresentable:
                #expect(expected == nil, "seed \(seed) step \(step): refused, \(mutations)")
            case let decision:
                Issue.record("seed \(seed) step \(step): \(decision)")
            }
            #expect(machine.node(namespace: "default", at: .root) == tree, "seed \(seed) step \(step)")
            #expect(machine.node(namespace: "default", at: .root).hash == tree.hash, "seed \(seed) step \(step)")
        }
        for (index, old) in kept.enumerated() {
            #expect(old.machine.node(namespace: "default", at: .root).hash == old.hash, "seed \(seed): kept \(index)")
        }
    }

    /// An entry replayed (no leader's resolution at hand) resolves it the same way, and one whose increment
    /// overflows leaves the shard's part unapplied as a whole.
    @Test func aReplayedEntryResolvesAsTheLeaderDid() throws {
        let tree = try Fixture.node(#"{"n":1e308,"m":1,"s":"x"}"#)
        let write = ShardWrite(
            namespace: "default",
            mutations: [
                try Fixture.set("m", #"{".sv":{"increment":2}}"#), try Fixture.set("s", #"{".sv":{"increment":2}}"#),
                try Fixture.set("q/r", #"{".sv":{"increment":-1}}"#),
            ], now: 9)
        var leader = ShardStateMachine(shard: 0, spineDepth: 1, trees: ["default": tree], index: 0, intents: [:])
        var replica = leader
        guard case .appended(let entry, _) = leader.write(write, conditions: []) else {
            Issue.record("the write was not appended")
            return
        }
        _ = try replica.apply(entry, at: 1)
        #expect(replica.node(namespace: "default", at: .root) == leader.node(namespace: "default", at: .root))
        #expect(Fixture.json(leader.node(namespace: "default", at: .root)) == #"{"m":3,"n":1e+308,"q":{"r":-1},"s":2}"#)
        let overflowing = ShardWrite(
            namespace: "default",
            mutations: [try Fixture.set("m", "5"), try Fixture.set("n", #"{".sv":{"increment":1e308}}"#)], now: 10)
        _ = try replica.apply(.write(overflowing), at: 2)
        #expect(replica.node(namespace: "default", at: .root) == leader.node(namespace: "default", at: .root))
        #expect(replica.lastIndex == 2)
    }
}
