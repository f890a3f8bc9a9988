import HearthCore
import HearthTestKit
import HearthWire
import Synchronization
import Testing

@testable import HearthDatabase
@testable import HearthServer

/// The shell around a shard's machine: what it parks, and what wakes a parked command when leadership moves.
@Suite struct ShardActorTests {
    /// A log that takes every append at once and leads the shard until told otherwise; it can refuse the next append
    /// while still saying it leads (a transfer that began between the actor's check and its append).
    private final class SwitchableLog: ShardLog {
        let leading = Atomic(true)
        let refusesNextAppend = Atomic(false)
        private let sequence = Atomic<UInt64>(0)

        var mayRefuseAppends: Bool { true }

        func append(_ entry: ShardEntry, applied: ShardApplied) throws(ShardNotLeaderError) -> ShardLogPosition {
            if self.refusesNextAppend.exchange(false, ordering: .relaxed) {
                throw ShardNotLeaderError(shard: applied.shard)
            }
            let sequence = self.sequence.add(1, ordering: .relaxed).newValue
            return ShardLogPosition(shard: applied.shard, index: applied.index, sequence: sequence)
        }

        func waitUntilCommitted(_ positions: [ShardLogPosition]) async throws {}

        func waitUntilOrdered(_ position: ShardLogPosition) async throws {}

        func acceptsAppends(shard: Int) -> Bool { self.leading.load(ordering: .relaxed) }
    }

    private static func write(_ json: String, at path: String) throws -> ShardWrite {
        ShardWrite(namespace: "default", mutations: [try Fixture.set(path, json)], now: 5)
    }

    /// Waits until `actor` has a command parked (the write task reached it).
    private static func waitUntilParked(_ actor: ShardActor) async {
        while await actor.parkedCount == 0 { await Task.yield() }
    }

    /// Shards over one log that takes several shards' entries in a record share one executor, and only then can the
    /// coordinator commit a transaction's parts together; shards with a log each (a Raft group each) run apart.
    @Test func shardsShareAnExecutorExactlyWhenTheirLogAppendsTogether() {
        let machines = (0..<3).map { ShardStateMachine(shard: $0, spineDepth: 2) }
        for (ordering, together) in [(SimulatedShardLog.Ordering.oneLog, true), (.oneLogWithoutGroups, false)]
            + [(.perShard, false)]
        {
            let log = SimulatedShardLog(ordering: ordering, lastIndex: [0, 0, 0], sequence: 0) { _, _ in }
            let actors = ShardActor.actors(for: machines, log: log)
            #expect(actors.count == 3)
            let executors = Set(actors.map { ObjectIdentifier($0.executor) })
            #expect(executors.count == (together ? 1 : 3), "\(ordering)")
            #expect(LocalShardClient(actors: actors).commitsTogether == together, "\(ordering)")
        }
        let alone = ShardActor.actors(for: [machines[0]], log: SwitchableLog())
        #expect(!LocalShardClient(actors: alone).commitsTogether, "one shard has nothing to commit together")
    }

    @Test func aWriteParkedBehindAReadLockFailsOverOnceTheLeaderIsDeposed() async throws {
        let log = SwitchableLog()
        let actor = ShardActor(machine: ShardStateMachine(shard: 0, spineDepth: 2), log: log)
        let transaction = TransactionID(rawValue: 7)
        _ = try await actor.lock(transaction, namespace: "default", paths: [Fixture.path("posts/p1")])
        let write = try Self.write("1", at: "posts/p1/starCount")
        let parked = Task { try await actor.write(write, conditions: []) }
        await Self.waitUntilParked(actor)

        #expect(await actor.releaseIfDeposed() == false, "a leader keeps its locks and parked commands")
        #expect(await actor.state.readLocks[transaction] != nil)

        log.leading.store(false, ordering: .relaxed)
        #expect(await actor.releaseIfDeposed())
        await #expect(throws: ShardNotLeaderError.self) { try await parked.value }
        #expect(await actor.state.readLocks.isEmpty)
        #expect(await actor.releaseIfDeposed() == false, "nothing is left to release")
    }

    @Test func aParkedWriteGoesOnOnceTheReadLockIsReleased() async throws {
        let actor = ShardActor(machine: ShardStateMachine(shard: 0, spineDepth: 2), log: SwitchableLog())
        let transaction = TransactionID(rawValue: 8)
        _ = try await actor.lock(transaction, namespace: "default", paths: [Fixture.path("posts/p1")])
        let parked = Task { try await actor.write(try Self.write("1", at: "posts/p1/starCount"), conditions: []) }
        await Self.waitUntilParked(actor)
        await actor.unlock(transaction)
        guard case .appended = try await parked.value else {
            Issue.record("the write must be appended once the lock is gone")
            return
        }
    }

    /// A refused append takes the entry back out of the machine: the write fails over, and the next write gets the
    /// index the refused one had (were it kept, the log would skip that index and every follower would stop on it).
    @Test func aRefusedAppendLeavesTheMachineAsItWas() async throws {
        let log = SwitchableLog()
        let actor = ShardActor(machine: ShardStateMachine(shard: 0, spineDepth: 2), log: log)
        _ = try await actor.write(try Self.write("1", at: "posts/p1/starCount"), conditions: [])
        let before = await actor.state
        log.refusesNextAppend.store(true, ordering: .relaxed)
        await #expect(throws: ShardNotLeaderError.self) {
            try await actor.write(try Self.write("2", at: "posts/p1/starCount"), conditions: [])
        }
        let after = await actor.state
        #expect(after.lastIndex == before.lastIndex)
        #expect(after.trees == before.trees)
        guard
            case .appended(let position, _) = try await actor.write(try Self.write("3", at: "posts/p2"), conditions: [])
        else {
            Issue.record("the next write must be appended")
            return
        }
        #expect(position.index == before.lastIndex + 1)
    }
}
