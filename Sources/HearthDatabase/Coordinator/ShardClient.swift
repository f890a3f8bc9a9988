package import HearthCore
package import HearthWire

/// How the coordinator reaches a shard's leader: the shard commands of `ShardActor`, addressed by shard number.
///
/// On a single node every shard's actor is local (`LocalShardClient`). In a cluster a shard's leader may be another
/// node: `RoutedShardClient` sends the command there over the peer transport, and the answer (the entry's position
/// in the shard's Raft log, the resolved mutations) comes back, so the coordinator waits for the commit on its own
/// replica of the shard, exactly as for a local append.
package protocol ShardClient: Sendable {
    /// See `ShardActor.write(_:conditions:)`.
    func write(shard: Int, _ write: ShardWrite, conditions: [WriteCondition]) async throws
        -> ShardActor.WriteResult
    /// See `ShardActor.lock(_:namespace:paths:)`.
    func lock(shard: Int, _ transaction: TransactionID, namespace: String, paths: [Path]) async throws
        -> ShardReadLock
    /// See `ShardActor.unlock(_:)`; best effort (a shard whose leader is gone held no lock to release).
    func unlock(shard: Int, _ transaction: TransactionID) async
    /// See `ShardActor.prepare(_:_:readLockTerm:)`.
    func prepare(shard: Int, _ transaction: TransactionID, _ intent: ShardIntent, readLockTerm: UInt64?)
        async throws -> ShardPrepareOutcome
    /// See `ShardActor.decide(_:commit:part:spineValues:readLockTerm:)`.
    func decide(
        shard: Int, _ transaction: TransactionID, commit: Bool, part: ShardIntent?, spineValues: [Path: Node],
        readLockTerm: UInt64?
    ) async throws -> ShardDecideOutcome
    /// See `ShardActor.finish(_:commit:)`.
    func finish(shard: Int, _ transaction: TransactionID, commit: Bool) async throws
        -> (ShardLogPosition, [ResolvedMutation])?
    /// See `ShardActor.forget(_:)`.
    func forget(shard: Int, _ transactions: [TransactionID]) async throws -> ShardLogPosition?
    /// See `ShardActor.confirmRefusal(term:)`.
    func confirmRefusal(shard: Int, term: UInt64) async throws -> Bool
    /// Waits before a transaction whose refusal `shard` could not confirm runs again (`reruns` times so far), so
    /// that a leader cut off from its majority, which keeps taking locks and failing to confirm, gives way to time
    /// rather than being asked again at once for ever.
    /// - Throws: `ShardCallError` (`noLeader`) once the reruns have waited out the leader wait.
    func pauseBeforeRerun(shard: Int, reruns: Int) async throws
    /// Whether `commitTogether` can run: every shard's actor is here, all on one executor, over a log that appends
    /// entries of several shards in one record (a single node).
    var commitsTogether: Bool { get }
    /// See `ShardActor.commitTogether(_:participants:of:parts:spineValues:)`, run on the anchor's actor; only where
    /// `commitsTogether`.
    func commitTogether(
        anchor: Int, _ transaction: TransactionID, parts: [(shard: Int, intent: ShardIntent)],
        spineValues: [Path: Node]
    ) async throws -> ShardActor.CommitTogetherOutcome
}

extension ShardClient {
    package var commitsTogether: Bool { false }

    package func commitTogether(
        anchor: Int, _ transaction: TransactionID, parts: [(shard: Int, intent: ShardIntent)],
        spineValues: [Path: Node]
    ) async throws -> ShardActor.CommitTogetherOutcome {
        preconditionFailure("shards reached through \(Self.self) cannot commit a transaction's parts together")
    }
}

/// Every shard's actor is in this process (a single node, or a cluster node's own leaders).
package struct LocalShardClient: ShardClient {
    package let actors: [ShardActor]
    package let commitsTogether: Bool

    package init(actors: [ShardActor]) {
        self.actors = actors
        self.commitsTogether =
            actors.count > 1 && actors.allSatisfy { $0.appendsTogether && $0.executor === actors[0].executor }
    }

    package func commitTogether(
        anchor: Int, _ transaction: TransactionID, parts: [(shard: Int, intent: ShardIntent)],
        spineValues: [Path: Node]
    ) async throws -> ShardActor.CommitTogetherOutcome {
        try await self.actors[anchor].commitTogether(
            transaction, participants: parts.map(\.shard), of: self.actors,
            parts: parts.map { .commit(transaction, $0.intent) },
            spineValues: spineValues)
    }

    package func write(shard: Int, _ write: ShardWrite, conditions: [WriteCondition]) async throws
        -> ShardActor.WriteResult
    {
        try await self.actors[shard].write(write, conditions: conditions)
    }

    package func lock(shard: Int, _ transaction: TransactionID, namespace: String, paths: [Path]) async throws
        -> ShardReadLock
    {
        try await self.actors[shard].lock(transaction, namespace: namespace, paths: paths)
    }

    package func unlock(shard: Int, _ transaction: TransactionID) async {
        await self.actors[shard].unlock(transaction)
    }

    package func prepare(shard: Int, _ transaction: TransactionID, _ intent: ShardIntent, readLockTerm: UInt64?)
        async throws -> ShardPrepareOutcome
    {
        try await self.actors[shard].prepare(transaction, intent, readLockTerm: readLockTerm)
    }

    package func decide(
        shard: Int, _ transaction: TransactionID, commit: Bool, part: ShardIntent?, spineValues: [Path: Node],
        readLockTerm: UInt64?
    ) async throws -> ShardDecideOutcome {
        try await self.actors[shard].decide(
            transaction, commit: commit, part: part, spineValues: spineValues, readLockTerm: readLockTerm)
    }

    package func finish(shard: Int, _ transaction: TransactionID, commit: Bool) async throws
        -> (ShardLogPosition, [ResolvedMutation])?
    {
        try await self.actors[shard].finish(transaction, commit: commit)
    }

    package func forget(shard: Int, _ transactions: [TransactionID]) async throws -> ShardLogPosition? {
        try await self.actors[shard].forget(transactions)
    }

    package func confirmRefusal(shard: Int, term: UInt64) async throws -> Bool {
        await self.actors[shard].confirmRefusal(term: term)
    }

    /// In one process every refusal is confirmed (its log commits what it appends), so there is nothing to wait
    /// for.
    package func pauseBeforeRerun(shard: Int, reruns: Int) async throws {}
}
