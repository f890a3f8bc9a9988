import HearthCore
import HearthWire
import Testing

@testable import HearthDatabase

/// A write's mutations are resolved one way: the checked resolution a shard applies (`Mutation.resolving`), the
/// unchecked one of a single mutation (`ShardStateMachine.resolve`), and the one step committing at once asks of each
/// participant (`ShardStateMachine.resolvingToCommit`) all agree.
@Suite struct ShardResolveTests {
    private static let tree = """
        {"a":{"n":5,"t":0,"p":{".value":1,".priority":3}},"b":{"x":"y"}}
        """

    /// Every kind of mutation: plain and server-valued sets and priorities, at existing and missing locations.
    private static func mutations() throws -> [Mutation] {
        [
            try Fixture.set("a/n", #"{".sv":{"increment":2}}"#),
            try Fixture.set("a/t", #"{".sv":"timestamp"}"#),
            try Fixture.set("a/m", #"{".sv":{"increment":-1.5}}"#),
            try Fixture.set("b/x", #"{"deep":{"v":{".sv":"timestamp"}},"w":1}"#),
            try Fixture.set("b/z", #""plain""#),
            .setPriority(Fixture.path("a/p"), try Fixture.value(#"{".sv":{"increment":4}}"#)),
            .setPriority(Fixture.path("b/x"), try Fixture.value("7")),
        ]
    }

    /// Resolving a write's mutations together gives what resolving each alone against the same tree gives.
    @Test func resolvingAWriteResolvesEachMutationAsAlone() throws {
        let tree = try Fixture.node(Self.tree)
        let mutations = try Self.mutations()
        guard case .success(let resolved) = Mutation.resolving(mutations, in: tree, now: 42) else {
            Issue.record("nothing here overflows")
            return
        }
        #expect(resolved == mutations.map { ShardStateMachine.resolve($0, in: tree, now: 42) })
        #expect(resolved[0] == .set(Fixture.path("a/n"), Node(.int(7))))
        #expect(resolved[1] == .set(Fixture.path("a/t"), Node(.int(42))))
        #expect(resolved[4] == .set(Fixture.path("b/z"), Node(.string("plain"))))
    }

    /// An increment no number can hold fails the whole write, naming where it is.
    @Test func anOverflowFailsTheWholeWrite() throws {
        let tree = try Fixture.node(#"{"a":{"n":1e308}}"#)
        let mutations = [
            try Fixture.set("a/m", #"{".sv":{"increment":1}}"#),
            try Fixture.set("a", #"{"n":{".sv":{"increment":1e308}}}"#),
        ]
        guard case .failure(let error) = Mutation.resolving(mutations, in: tree, now: 1) else {
            Issue.record("the overflow was resolved")
            return
        }
        #expect(error.path == Fixture.path("a/n"))
    }

    /// Committing at once asks each participant for its obstacle, then its resolution: nil exactly when
    /// `obstacleToCommit` finds one, else what `resolving` gives.
    @Test func resolvingToCommitIsTheObstacleCheckThenTheResolution() throws {
        var machine = ShardStateMachine(
            shard: 0, spineDepth: 1, trees: ["default": try Fixture.node(Self.tree)], index: 0, intents: [:])
        let plan = ShardTransactionPlan(anchor: 0, participants: [0, 1])
        let free = ShardIntent(
            write: ShardWrite(namespace: "default", mutations: try Self.mutations(), now: 9), plan: plan)
        let id = TransactionID(rawValue: 1)
        guard case .success(let expected) = machine.resolving(free.write),
            case .success(let resolved)? = machine.resolvingToCommit(id, free)
        else {
            Issue.record("a free part was not resolved")
            return
        }
        #expect(resolved == expected)
        let holder = ShardIntent(
            write: ShardWrite(namespace: "default", mutations: [try Fixture.set("b/x", "1")], now: 9), plan: plan)
        guard case .appended = machine.prepare(TransactionID(rawValue: 2), holder) else {
            Issue.record("the holder was not prepared")
            return
        }
        #expect(machine.obstacleToCommit(id, free) != nil)
        #expect(machine.resolvingToCommit(id, free) == nil)
    }
}
