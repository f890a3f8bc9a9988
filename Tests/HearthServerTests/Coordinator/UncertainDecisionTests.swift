import HearthCluster
import HearthCore
import HearthWire
import Testing

@testable import HearthDatabase
@testable import HearthServer

/// A transaction whose decision call fails must abort its prepared parts only when the anchor certainly did not log
/// the decision: after a lost answer the decision may be committed, and aborting the parts would break atomicity.
@Suite struct UncertainDecisionTests {
    /// The shards in this process, except that the anchor's decision fails with `error` before reaching it.
    struct FailingDecision: ShardClient {
        let local: LocalShardClient
        let error: any Error & Sendable

        func write(shard: Int, _ write: ShardWrite, conditions: [WriteCondition]) async throws
            -> ShardActor.WriteResult
        {
            try await self.local.write(shard: shard, write, conditions: conditions)
        }

        func lock(shard: Int, _ transaction: TransactionID, namespace: String, paths: [Path]) async throws
            -> ShardReadLock
        {
            try await self.local.lock(shard: shard, transaction, namespace: namespace, paths: paths)
        }

        func unlock(shard: Int, _ transaction: TransactionID) async {
            await self.local.unlock(shard: shard, transaction)
        }

        func prepare(shard: Int, _ transaction: TransactionID, _ intent: ShardIntent, readLockTerm: UInt64?)
            async throws -> ShardPrepareOutcome
        {
            try await self.local.prepare(shard: shard, transaction, intent, readLockTerm: readLockTerm)
        }

        func decide(
            shard: Int, _ transaction: TransactionID, commit: Bool, part: ShardIntent?, spineValues: [Path: Node],
            readLockTerm: UInt64?
        ) async throws -> ShardDecideOutcome {
            throw self.error
        }

        func finish(shard: Int, _ transaction: TransactionID, commit: Bool) async throws
            -> (ShardLogPosition, [ResolvedMutation])?
        {
            try await self.local.finish(shard: shard, transaction, commit: commit)
        }

        func forget(shard: Int, _ transactions: [TransactionID]) async throws -> ShardLogPosition? {
            try await self.local.forget(shard: shard, transactions)
        }

        func confirmRefusal(shard: Int, term: UInt64) async throws -> Bool {
            try await self.local.confirmRefusal(shard: shard, term: term)
        }

        func pauseBeforeRerun(shard: Int, reruns: Int) async throws {}
    }

    /// Runs a two-shard update whose decision fails with `error`; returns how many parts stay prepared.
    private func preparedAfterFailedDecision(_ error: any Error & Sendable) async throws -> Int {
        let router = ShardRouter(shardCount: 4, shardDepth: 2)
        let machines = (0..<4).map { ShardStateMachine(shard: $0, spineDepth: 2) }
        let node = SimulatedNode(
            router: router, ordering: .oneLog, machines: machines, state: nil, sequence: 0, onApplied: { _ in })
        let coordinator = Coordinator(
            router: router, shards: FailingDecision(local: LocalShardClient(actors: node.shards), error: error),
            log: node.log, view: node.view)
        let paths = try (0..<16).map { try Path(validating: "/posts/p\($0)") }
        let shards = Set(paths.flatMap { router.shards(namespace: "default", mutation: $0) })
        #expect(shards.count > 1)
        await #expect(throws: (any Error).self) {
            _ = try await coordinator.submit(
                namespace: "default", mutations: paths.map { .set($0, WriteValue(node: Node(.int(1)))) },
                conditions: [], now: 0)
        }
        var prepared = 0
        for shard in node.shards { prepared += await shard.intents.count }
        return prepared
    }

    @Test func aLostAnswerLeavesThePartsPrepared() async throws {
        let error = ShardCallError(shard: 3, kind: .timedOut("n2"), waited: .seconds(5))
        #expect(try await self.preparedAfterFailedDecision(error) > 0)
    }

    @Test func aRefusedDecisionAbortsThePreparedParts() async throws {
        #expect(try await self.preparedAfterFailedDecision(ShardNotLeaderError(shard: 3)) == 0)
        let unreachable = ShardCallError(shard: 3, kind: .unreachable("n2"), waited: .zero)
        #expect(try await self.preparedAfterFailedDecision(unreachable) == 0)
    }
}
