import HearthCore
import HearthTestKit
import HearthWire
import Testing

@testable import HearthDatabase
@testable import HearthServer

/// A write that names its origin is applied once by a shard: sent again, alone or as a transaction's part, it is
/// answered `duplicate` and appends nothing; replicas and snapshots remember it the same way.
@Suite struct ShardDuplicateTests {
    private static let plan = ShardTransactionPlan(anchor: 1, participants: [0, 1])

    private static func write(_ sequence: UInt64, delta: Int = 1, client: String = "app") throws -> ShardWrite {
        ShardWrite(
            namespace: "default", mutations: [try Fixture.set("posts/p1/stars", #"{".sv":{"increment":\#(delta)}}"#)],
            now: 1_000, origin: try WriteOrigin(client: client, sequence: sequence, settledBelow: 1))
    }

    private static func stars(_ machine: ShardStateMachine) -> String {
        Fixture.json(machine.node(namespace: "default", at: Fixture.path("posts/p1/stars")))
    }

    @Test func aWriteSentAgainIsADuplicate() throws {
        var machine = ShardStateMachine(shard: 0, spineDepth: 2)
        guard case .appended = machine.write(try Self.write(1), conditions: []) else {
            Issue.record("the first write must be appended")
            return
        }
        guard case .duplicate = machine.write(try Self.write(1), conditions: []) else {
            Issue.record("the same write sent again must be a duplicate")
            return
        }
        // A duplicate wins over a condition that no longer holds: the first write was applied.
        let stale = WriteCondition(path: Fixture.path("posts/p1/stars"), expectedHash: "nope")
        guard case .duplicate = machine.write(try Self.write(1), conditions: [stale]) else {
            Issue.record("a duplicate is answered before its condition is checked")
            return
        }
        guard case .appended = machine.write(try Self.write(2), conditions: []),
            case .appended = machine.write(try Self.write(1, client: "other"), conditions: [])
        else {
            Issue.record("another write, or another client's, must be appended")
            return
        }
        #expect(Self.stars(machine) == "3")
        #expect(machine.lastIndex == 3)
    }

    /// A committed part is remembered where it committed; an aborted one is not, so the write may run again.
    @Test func aTransactionsPartIsRememberedOnlyWhenItCommits() throws {
        var participant = ShardStateMachine(shard: 0, spineDepth: 2)
        var anchor = ShardStateMachine(shard: 1, spineDepth: 2)
        let first = TransactionID(rawValue: 1)
        guard case .appended = participant.prepare(first, ShardIntent(write: try Self.write(5), plan: Self.plan)),
            case .appended = participant.finish(first, commit: false)
        else {
            Issue.record("an aborted part must prepare and finish")
            return
        }
        #expect(!participant.sessions.contains(try #require(try Self.write(5).origin)))
        let second = TransactionID(rawValue: 2)
        guard case .appended = participant.prepare(second, ShardIntent(write: try Self.write(5), plan: Self.plan)),
            case .appended = anchor.decide(
                second, commit: true, part: ShardIntent(write: try Self.write(5), plan: Self.plan)),
            case .appended = participant.finish(second, commit: true)
        else {
            Issue.record("the write sent again after an abort must run")
            return
        }
        let third = TransactionID(rawValue: 3)
        guard case .duplicate = participant.prepare(third, ShardIntent(write: try Self.write(5), plan: Self.plan)),
            case .duplicate = anchor.decide(
                third, commit: true, part: ShardIntent(write: try Self.write(5), plan: Self.plan))
        else {
            Issue.record("a committed transaction's write sent again must be a duplicate in every participant")
            return
        }
        #expect(anchor.decisions[third] == nil && participant.intents.isEmpty)
        #expect(Self.stars(participant) == "1")
    }

    /// Replaying the appended entries, or restoring a shard snapshot, gives the same sessions.
    @Test func replicasAndSnapshotsRememberTheSameWrites() async throws {
        var machine = ShardStateMachine(shard: 0, spineDepth: 2)
        var entries: [ShardEntry] = []
        for sequence in [1, 2, 2, 3, 1] as [UInt64] {
            if case .appended(let entry, _) = machine.write(try Self.write(sequence), conditions: []) {
                entries.append(entry)
            }
        }
        #expect(entries.count == 3)
        var replica = ShardStateMachine(shard: 0, spineDepth: 2)
        for (offset, entry) in entries.enumerated() {
            var bytes: [UInt8] = []
            entry.encode(into: &bytes)
            var reader = BinaryReader(bytes: bytes)
            _ = try replica.apply(try ShardEntry(reading: &reader), at: UInt64(offset + 1))
        }
        #expect(replica.sessions == machine.sessions)
        let snapshot = ShardSnapshot(machine: machine, decisions: [:])
        let restored = try await ShardSnapshot.decode(snapshot.encoded(), shard: 0, spineDepth: 2).machine
        #expect(restored.sessions == machine.sessions)
        var copy = restored
        guard case .duplicate = copy.write(try Self.write(3), conditions: []) else {
            Issue.record("a restored shard must know the writes its snapshot remembers")
            return
        }
    }
}
