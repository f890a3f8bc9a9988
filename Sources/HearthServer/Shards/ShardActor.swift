public import HearthCore
import HearthWire

/// Owns one virtual shard's trees (one per namespace) and serialises every write to it.
///
/// The shard is where Firebase's per-location guarantees are decided: server values resolve against its current
/// data, compare-and-set compares against it, and 2PC intents lock paths in it. A write is applied to the shard's
/// tree and appended to the commit log in the same actor turn, so log order equals apply order; durability is
/// awaited outside the actor, which lets many writes to one hot location share one fsync.
public actor ShardActor {
    public let id: Int
    private var trees: [String: Node] = [:]
    private var intents: [UInt64: [LockedPath]] = [:]
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// A path locked by a prepared transaction.
    struct LockedPath: Sendable {
        var namespace: String
        var path: Path
    }

    public init(id: Int) {
        self.id = id
    }

    /// Replaces the shard's tree for a namespace (recovery only).
    public func load(namespace: String, tree: Node) {
        self.trees[namespace] = tree
    }

    /// The shard's current data at `path` (including writes not yet durable).
    public func node(namespace: String, at path: Path) -> Node {
        (self.trees[namespace] ?? .empty).node(at: path)
    }

    /// A write whose mutations all live in this shard: waits for conflicting intents, checks the condition,
    /// resolves server values, applies, and appends to the log.
    /// - Returns: the log position to await, or the current value when the condition failed.
    func write(
        namespace: String,
        mutations: [Mutation],
        condition: WriteCondition?,
        now: Int64,
        log: CommitLog
    ) async -> ShardWriteResult {
        let paths = mutations.map(\.path) + (condition.map { [$0.path] } ?? [])
        await self.waitForLocks(namespace: namespace, paths: paths)
        var tree = self.trees[namespace] ?? .empty
        if let condition, !Self.holds(condition, in: tree) {
            return .conditionFailed(current: tree.node(at: condition.path))
        }
        let resolved = mutations.map { Self.resolve($0, in: tree, now: now) }
        for mutation in resolved { tree = mutation.apply(to: tree) }
        self.trees[namespace] = tree
        let lsn = log.enqueue(
            CommitRecord(namespace: namespace, mutations: resolved, sources: CommitRecord.sources(of: mutations)))
        return .enqueued(lsn: lsn, resolved: resolved)
    }

    /// Phase one of a multi-shard transaction: waits until no other transaction holds a lock overlapping
    /// `paths`, then locks them. The coordinator locks participants in ascending shard order, so waits never cycle.
    func lock(transaction: UInt64, namespace: String, paths: [Path]) async {
        await self.waitForLocks(namespace: namespace, paths: paths)
        self.intents[transaction] = paths.map { LockedPath(namespace: namespace, path: $0) }
    }

    /// Phase two: apply this shard's part of a decided transaction and release its locks.
    func commit(transaction: UInt64, namespace: String, mutations: [ResolvedMutation]) {
        var tree = self.trees[namespace] ?? .empty
        for mutation in mutations { tree = mutation.apply(to: tree) }
        self.trees[namespace] = tree
        self.release(transaction)
    }

    /// Releases a transaction's locks without applying anything.
    func abort(transaction: UInt64) {
        self.release(transaction)
    }

    private func release(_ transaction: UInt64) {
        guard self.intents.removeValue(forKey: transaction) != nil else { return }
        let resumed = self.waiters
        self.waiters = []
        for waiter in resumed { waiter.resume() }
    }

    private func waitForLocks(namespace: String, paths: [Path]) async {
        while self.isLocked(namespace: namespace, paths: paths) {
            await withCheckedContinuation { self.waiters.append($0) }
        }
    }

    private func isLocked(namespace: String, paths: [Path]) -> Bool {
        for locks in self.intents.values {
            for lock in locks where lock.namespace == namespace {
                for path in paths where lock.path.contains(path) || path.contains(lock.path) {
                    return true
                }
            }
        }
        return false
    }

    static func holds(_ condition: WriteCondition, in tree: Node) -> Bool {
        tree.node(at: condition.path).hash == condition.expectedHash
    }

    /// Resolves a mutation's server values against `tree` as it is before the write.
    static func resolve(_ mutation: Mutation, in tree: Node, now: Int64) -> ResolvedMutation {
        switch mutation {
        case .set(let path, let value):
            let existing = tree.node(at: path)
            return .set(path, value.hasServerValues ? value.resolved(existing: existing, now: now) : value.node)
        case .setPriority(let path, let value):
            let existing = Node(priorityValue: tree.node(at: path).priority)
            let node = value.hasServerValues ? value.resolved(existing: existing, now: now) : value.node
            return .setPriority(path, ResolvedMutation.priority(from: node))
        }
    }
}

/// The result of a single-shard write.
enum ShardWriteResult: Sendable {
    case enqueued(lsn: UInt64, resolved: [ResolvedMutation])
    case conditionFailed(current: Node)
}
