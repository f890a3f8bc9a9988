import HearthCore
import HearthWire
import Testing

@testable import HearthDatabase
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

    /// Increments of one counter commute while prepared, so a new one is refused when the ones prepared beside it,
    /// applied first, would push the counter over; a huge one holds its counter alone instead.
    @Test func incrementsPreparedBesideANewOneCountTowardsItsOverflow() throws {
        let near = Double.greatestFiniteMagnitude - 1.5e299
        var machine = ShardStateMachine(
            shard: 0, spineDepth: 1, trees: ["default": Node.empty.setting(Node(.double(near)), at: Fixture.path("n"))],
            index: 0, intents: [:])
        let step = ShardWrite(
            namespace: "default", mutations: [try Fixture.set("n", #"{".sv":{"increment":1e299}}"#)], now: 5)
        let plan = ShardTransactionPlan(anchor: 1, participants: [0, 1])
        guard case .appended = machine.prepare(TransactionID(rawValue: 1), ShardIntent(write: step, plan: plan)) else {
            Issue.record("the first increment alone fits")
            return
        }
        guard case .unrepresentable = machine.write(step, conditions: []) else {
            Issue.record("the second increment was taken though both together overflow")
            return
        }
        var calm = ShardStateMachine(
            shard: 0, spineDepth: 1, trees: ["default": Node.empty.setting(Node(.int(1)), at: Fixture.path("n"))],
            index: 0, intents: [:])
        let huge = ShardWrite(
            namespace: "default", mutations: [try Fixture.set("n", #"{".sv":{"increment":1e305}}"#)], now: 5)
        guard case .appended = calm.prepare(TransactionID(rawValue: 2), ShardIntent(write: huge, plan: plan)) else {
            Issue.record("a huge increment alone fits")
            return
        }
        guard case .blocked = calm.write(step, conditions: []) else {
            Issue.record("a huge prepared increment must hold its counter alone")
            return
        }
    }

    /// Applying an entry with an unrepresentable increment changes none of its locations.
    @Test func anEntryWithAnUnrepresentableIncrementChangesNothing() throws {
        var machine = try Self.machine()
        let applied = try machine.apply(.write(try Self.write()), at: 1)
        guard case .write(let change) = applied.effect else {
            Issue.record("the entry applied as \(applied.effect)")
            return
        }
        #expect(change.mutations.isEmpty && change.increments.isEmpty)
        #expect(machine.node(namespace: "default", at: .root) == (try Fixture.node(#"{"n":1e308,"m":1}"#)))
    }
}
