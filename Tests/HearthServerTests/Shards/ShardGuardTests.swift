import HearthCore
import HearthTestKit
import HearthWire
import Testing

@testable import HearthDatabase
@testable import HearthServer

/// Conditions beyond the written location (what security rules read): every one must hold for a single-shard write,
/// and a prepared part keeps its guards locked until the decision, even across a replay of the log.
@Suite struct ShardGuardTests {
    private static func machine(_ json: String) throws -> ShardStateMachine {
        ShardStateMachine(shard: 0, spineDepth: 2, trees: ["default": try Fixture.node(json)], index: 0, intents: [:])
    }

    private static func write(_ mutations: Mutation...) -> ShardWrite {
        ShardWrite(namespace: "default", mutations: mutations, now: 5)
    }

    @Test func everyConditionMustHold() throws {
        let machine = try Self.machine(#"{"users":{"ada":{"admin":true}},"names":{}}"#)
        let admin = WriteCondition(
            path: Fixture.path("users/ada"), expectedHash: try Fixture.node(#"{"admin":true}"#).hash)
        let free = WriteCondition(path: Fixture.path("names/ada"), expectedHash: "")
        let claim = Self.write(try Fixture.set("names/ada", #""ada""#))
        var both = machine
        guard case .appended = both.write(claim, conditions: [admin, free]) else {
            Issue.record("both conditions hold")
            return
        }
        let taken = WriteCondition(path: Fixture.path("names/ada"), expectedHash: Node(.string("x")).hash)
        var second = machine
        guard case .conditionFailed(let current) = second.write(claim, conditions: [admin, taken]) else {
            Issue.record("the second condition fails")
            return
        }
        #expect(current.isEmpty && second.lastIndex == 0)
    }

    @Test func aPreparedPartHoldsItsGuardsUntilItFinishesAndAfterAReplay() throws {
        var machine = try Self.machine(#"{"users":{"ada":{"admin":true}}}"#)
        let transaction = TransactionID(rawValue: 4)
        let intent = ShardIntent(
            write: Self.write(try Fixture.set("names/ada", #""ada""#)),
            plan: ShardTransactionPlan(anchor: 3, participants: [0, 3]), guards: [Fixture.path("users/ada")])
        guard case .appended(let entry, _) = machine.prepare(transaction, intent) else {
            Issue.record("a prepare on free paths appends")
            return
        }
        var replayed = try Self.machine(#"{"users":{"ada":{"admin":true}}}"#)
        _ = try replayed.apply(try Self.roundTrip(entry), at: 1)
        for var copy in [machine, replayed] {
            for (path, blocked) in [("users/ada/admin", true), ("users", true), ("users/bob", false)] {
                var isBlocked = false
                if case .blocked = copy.write(Self.write(try Fixture.set(path, "false")), conditions: []) {
                    isBlocked = true
                }
                #expect(isBlocked == blocked, "a write at \(path)")
            }
            guard case .appended = copy.finish(transaction, commit: true) else {
                Issue.record("finish appends")
                continue
            }
            guard case .appended = copy.write(Self.write(try Fixture.set("users/ada/admin", "false")), conditions: [])
            else {
                Issue.record("the guard is released by the finish")
                continue
            }
        }
    }

    private static func roundTrip(_ entry: ShardEntry) throws -> ShardEntry {
        var bytes: [UInt8] = []
        entry.encode(into: &bytes)
        var reader = BinaryReader(bytes: bytes)
        return try ShardEntry(reading: &reader)
    }
}
