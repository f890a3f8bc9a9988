public import HearthCore
public import HearthWire
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
        try await self.submit(namespace: namespace, mutations: mutations, condition: condition, now: now).outcome()
    }

    /// Orders a write without waiting for it to become durable, so one client can pipeline many writes.
    ///
    /// When this returns, a single-shard write is applied to its shard and has its place in the log: every later
    /// submission (from anyone) is ordered after it. Multi-shard transactions complete before returning.
    /// Await `PendingWrite.outcome()` before acknowledging.
    public func submit(
        namespace: String,
        mutations: [Mutation],
        condition: WriteCondition?,
        now: Int64
    ) async throws -> PendingWrite {
        guard !mutations.isEmpty else { return PendingWrite(log: self.log, state: .finished(.committed([]))) }
        var participants = Set<Int>()
        for mutation in mutations {
            participants.formUnion(self.router.shards(namespace: namespace, mutation: mutation.path))
        }
        if let condition {
            participants.formUnion(self.router.shards(namespace: namespace, mutation: condition.path))
        }
        if participants.count == 1, let only = participants.first {
            let shard = self.shards[only]
            switch await shard.write(
                namespace: namespace, mutations: mutations, condition: condition, now: now, log: self.log)
            {
            case .conditionFailed(let current):
                return PendingWrite(log: self.log, state: .finished(.conditionFailed(current: current)))
            case .enqueued(let lsn, let resolved):
                return PendingWrite(log: self.log, state: .enqueued(lsn: lsn, resolved: resolved))
            }
        }
        let outcome = try await self.writeTransaction(
            participants: participants.sorted(), namespace: namespace, mutations: mutations,
            condition: condition, now: now)
        return PendingWrite(log: self.log, state: .finished(outcome))
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
        let lsn = self.log.enqueue(
            CommitRecord(namespace: namespace, mutations: resolved, sources: CommitRecord.sources(of: mutations)))
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

/// A write that has its place in the log but may not be durable yet.
public struct PendingWrite: Sendable {
    enum State: Sendable {
        case enqueued(lsn: UInt64, resolved: [ResolvedMutation])
        case finished(WriteOutcome)
    }

    let log: CommitLog
    let state: State

    /// Waits until the write is durable, applied to the read view and fanned out, and returns what became of it.
    public func outcome() async throws -> WriteOutcome {
        switch self.state {
        case .finished(let outcome):
            return outcome
        case .enqueued(let lsn, let resolved):
            try await self.log.waitUntilDurable(lsn)
            return .committed(resolved)
        }
    }
}
