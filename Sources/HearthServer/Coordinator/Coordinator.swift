public import HearthCore
import Synchronization

/// Routes every write to the shards it touches and makes multi-shard writes atomic.
///
/// A write inside one shard goes straight to that shard's actor. A write spanning shards (a multi-path update, or
/// any write on a spine path such as `/posts` or `/`) runs two-phase commit: lock the touched paths in every
/// participant in ascending shard order (so concurrent transactions never deadlock), wait until every record already
/// in the log is durable (so the read view holds the latest data under the locks), resolve server values and check
/// the condition against the view, append one log record — the commit decision — then apply each participant's part
/// and release the locks. On a single node the prepare state lives only in memory: a crash before the record is an
/// abort. See docs/architecture.md for how this maps onto the cluster.
public final class Coordinator: Sendable {
    let router: ShardRouter
    let shards: [ShardActor]
    let log: CommitLog
    let view: DatabaseView
    private let nextTransaction = Atomic<UInt64>(1)

    init(router: ShardRouter, shards: [ShardActor], log: CommitLog, view: DatabaseView) {
        self.router = router
        self.shards = shards
        self.log = log
        self.view = view
    }

    /// Applies `mutations` atomically (all or nothing) if `condition` holds.
    /// - Returns: `.committed` once the write is durable, visible in the read view and fanned out.
    public func write(
        namespace: String,
        mutations: [Mutation],
        condition: WriteCondition?,
        now: Int64
    ) async throws -> WriteOutcome {
        guard !mutations.isEmpty else { return .committed([]) }
        var participants = Set<Int>()
        for mutation in mutations {
            participants.formUnion(self.router.shards(namespace: namespace, mutation: mutation.path))
        }
        if let condition {
            participants.formUnion(self.router.shards(namespace: namespace, mutation: condition.path))
        }
        if participants.count == 1, let only = participants.first {
            return try await self.writeSingleShard(
                self.shards[only], namespace: namespace, mutations: mutations, condition: condition, now: now)
        }
        return try await self.writeTransaction(
            participants: participants.sorted(), namespace: namespace, mutations: mutations,
            condition: condition, now: now)
    }

    private func writeSingleShard(
        _ shard: ShardActor,
        namespace: String,
        mutations: [Mutation],
        condition: WriteCondition?,
        now: Int64
    ) async throws -> WriteOutcome {
        switch await shard.write(namespace: namespace, mutations: mutations, condition: condition, now: now, log: self.log) {
        case .conditionFailed(let current):
            return .conditionFailed(current: current)
        case .enqueued(let lsn, let resolved):
            try await self.log.waitUntilDurable(lsn)
            return .committed(resolved)
        }
    }

    private func writeTransaction(
        participants: [Int],
        namespace: String,
        mutations: [Mutation],
        condition: WriteCondition?,
        now: Int64
    ) async throws -> WriteOutcome {
        let transaction = self.nextTransaction.wrappingAdd(1, ordering: .relaxed).oldValue
        let lockPaths = mutations.map(\.path) + (condition.map { [$0.path] } ?? [])
        for index in participants {
            await self.shards[index].lock(transaction: transaction, namespace: namespace, paths: lockPaths)
        }
        do {
            try await self.log.waitUntilDurable(self.log.lastEnqueuedLSN)
        } catch {
            for index in participants { await self.shards[index].abort(transaction: transaction) }
            throw error
        }
        let root = self.view.root(namespace)
        if let condition, root.node(at: condition.path).hash != condition.expectedHash {
            for index in participants { await self.shards[index].abort(transaction: transaction) }
            return .conditionFailed(current: root.node(at: condition.path))
        }
        let resolved = mutations.map { ShardActor.resolve($0, in: root, now: now) }
        let lsn = self.log.enqueue(CommitRecord(namespace: namespace, mutations: resolved, sources: CommitRecord.sources(of: mutations)))
        let parts = self.parts(of: resolved, namespace: namespace)
        for index in participants {
            await self.shards[index].commit(transaction: transaction, namespace: namespace, mutations: parts[index])
        }
        try await self.log.waitUntilDurable(lsn)
        return .committed(resolved)
    }

    /// The mutations each shard applies to its own tree for a committed transaction (element `i` for shard `i`).
    private func parts(of resolved: [ResolvedMutation], namespace: String) -> [[ResolvedMutation]] {
        var parts = [[ResolvedMutation]](repeating: [], count: self.router.shardCount)
        for mutation in resolved {
            switch mutation {
            case .set(let path, let node):
                if self.router.isSpine(path) {
                    for (shard, part) in self.router.split(node, at: path, namespace: namespace).enumerated() {
                        parts[shard].append(.set(path, part))
                    }
                } else if let shard = self.router.shard(namespace: namespace, path: path) {
                    parts[shard].append(mutation)
                }
            case .setPriority(let path, _):
                if let shard = self.router.shard(namespace: namespace, path: path) {
                    parts[shard].append(mutation)
                }
            }
        }
        return parts
    }
}
