import HearthCore
import HearthWire
import Testing

@testable import HearthServer

/// A shard never stores an increment's overflow: its leader refuses a write (or a transaction's part) whose
/// increment no number can hold before appending it, and an entry that still carries one (ordered before an earlier increment made it overflow)
/// leaves the shard's part unapplied as a whole, alike on every replica.
@Suite struct ShardIncrementOverflowTests {
    private static func machine() throws -> ShardStateMachine {
        ShardStateMachine(
            shard: 0, spineDepth: 2, trees: ["default": try Fixture.node(#"{"n":1e308,"m":1}"#)], index: 0,
            intents: [:])
    }

    private static func write() throws -> ShardWrite {
        ShardWrite(
            namespace: "default",
            mutations: [
                try Fixture.set("m", #"{".sv":{"increment":1}}"#),
                try Fixture.set("n", #"{".sv":{"increment":1e308}}"#),
            ], now: 5)
    }

    /// The leader's command refuses the write whole, naming the location, and appends nothing.
    @Test func theLeaderRefusesAnUnrepresentableIncrementBeforeAppending() throws {
        var machine = try Self.machine()
        guard case .unrepresentable(let error) = machine.write(try Self.write(), conditions: []) else {
            Issue.record("the write was not refused")
            return
        }
        #expect(error.path == Fixture.path("n"))
        #expect(machine.lastIndex == 0)
        #expect(machine.node(namespace: "default", at: .root) == (try Fixture.node(#"{"n":1e308,"m":1}"#)))
    }

    /// A transaction's part is refused alike when it is prepared and when the anchor decides with it: nothing is
    /// logged, so the coordinator aborts every other part.
    @Test func aTransactionPartWithAnUnrepresentableIncrementIsNeitherPreparedNorDecided() throws {
        var machine = try Self.machine()
        let intent = ShardIntent(write: try Self.write(), plan: ShardTransactionPlan(anchor: 0, participants: [0, 1]))
        guard case .unrepresentable = machine.prepare(TransactionID(rawValue: 7), intent) else {
            Issue.record("the part was prepared")
            return
        }
        guard case .unrepresentable = machine.decide(TransactionID(rawValue: 8), commit: true, part: intent) else {
            Issue.record("the part was decided")
            return
        }
        #expect(machine.lastIndex == 0 && machine.intents.isEmpty)
        #expect(machine.node(namespace: "default", at: .root) == (try Fixture.node(#"{"n":1e308,"m":1}"#)))
    }

    /// Applying an entry with an unrepresentable increment changes none of its locations.
    @Test func anEntryWithAnUnrepresentableIncrementChangesNothing() throws {
        var machine = try Self.machine()
        let applied = machine.apply(.write(try Self.write()), at: 1)
        guard case .write(let change) = applied.effect else {
            Issue.record("the entry applied as \(applied.effect)")
            return
        }
        #expect(change.mutations.isEmpty && change.increments.isEmpty)
        #expect(machine.node(namespace: "default", at: .root) == (try Fixture.node(#"{"n":1e308,"m":1}"#)))
    }
}
