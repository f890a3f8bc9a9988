/// A shard's log as the write path sees it: the seam where entries become durable and committed.
///
/// A shard's actor applies an entry to its state machine and appends it here in the same turn, so each shard's log
/// order is its apply order. Once an entry is committed the log hands its `ShardApplied` to the read view, each
/// shard's entries in index order. `LocalShardLog` multiplexes every shard onto a single node's one write-ahead
/// log (one group-commit fsync for all of them); `RaftShardLog` puts a Raft group per shard behind this seam, where
/// "committed" means stored by a majority of the shard's replicas.
package protocol ShardLog: Sendable {
    /// Appends an entry its shard has just applied; returns where to wait for it. Never blocks on I/O.
    /// - Throws: `ShardNotLeaderError` when a replicated log refuses the entry (this node stopped leading the shard, or
    ///   a leadership transfer began, since `acceptsAppends`): nothing was logged, and the caller must take the entry
    ///   back out of its machine.
    func append(_ entry: ShardEntry, applied: ShardApplied) throws(ShardNotLeaderError) -> ShardLogPosition

    /// Whether one record can hold entries of several shards, durable together or not at all (`appendTogether`):
    /// true for a log that orders every shard as one (a single node's write-ahead log), false for a log per shard.
    var appendsTogether: Bool { get }

    /// Appends entries of several shards, each just applied by its shard (`applied`, at the same positions), as one
    /// record: durable together or not at all, committed in one step. Only for a log that `appendsTogether`. Never
    /// blocks on I/O. `entries` and `applied` are consumed: a log that keeps or writes the entries moves them, never
    /// copying one.
    func appendTogether(_ entries: consuming [ShardEntry], applied: consuming [ShardApplied]) -> [ShardLogPosition]

    /// Whether `append` can refuse an entry (a replicated log). Only then does the shard's actor keep its machine's
    /// previous state while applying, to put it back: holding it makes the apply copy what it changes.
    var mayRefuseAppends: Bool { get }

    /// Returns once every entry at `positions` is committed and handed to the read view.
    /// - Throws: the log's failure when it can no longer commit anything.
    func waitUntilCommitted(_ positions: [ShardLogPosition]) async throws

    /// Calls `body` once every entry at `positions` is committed and handed to the read view, or with the log's
    /// failure (`waitUntilCommitted` as a callback, for answers handed on without a task waiting for each). `body`
    /// may run on the log's own thread, so it must be short and must not block.
    func whenCommitted(_ positions: [ShardLogPosition], _ body: @escaping @Sendable (Result<Void, any Error>) -> Void)

    /// Returns once an entry appended before `position` will be committed no later than anything appended after
    /// it anywhere (the condition for logging a transaction's decision after its prepares). Immediate when every
    /// shard shares one ordered log; in the cluster, once the prepare is committed.
    func waitUntilOrdered(_ position: ShardLogPosition) async throws

    /// Whether `shard`'s log takes appends from this node now: always for a local log; for a replicated one only
    /// while this node leads the shard and has applied every entry of earlier leaders.
    func acceptsAppends(shard: Int) -> Bool

    /// The term in which this node leads `shard` (0 for a local log): locks taken in one term do not hold in
    /// another.
    func leaderTerm(shard: Int) -> UInt64

    /// Whether a refusal (a compare-and-set that failed) that this node decided against its state machine of
    /// `shard` while leading it in `term` is true: this node still led the shard in `term` after the call began
    /// (Raft's read index, so no newer leader had committed anything the refusal missed), and every entry the
    /// machine had applied ahead of commit is committed. False when either cannot be confirmed: the refusal must
    /// then be decided again. Always true for a local log, whose state machine is the only one.
    func confirmRefusal(shard: Int, term: UInt64) async -> Bool
}

extension ShardLog {
    package var appendsTogether: Bool { false }

    package func appendTogether(
        _ entries: consuming [ShardEntry], applied: consuming [ShardApplied]
    ) -> [ShardLogPosition] {
        preconditionFailure("a log per shard cannot append entries of several shards in one record")
    }

    package func acceptsAppends(shard: Int) -> Bool { true }

    /// A log with no callback of its own waits in a task.
    package func whenCommitted(
        _ positions: [ShardLogPosition], _ body: @escaping @Sendable (Result<Void, any Error>) -> Void
    ) {
        Task {
            do {
                try await self.waitUntilCommitted(positions)
                body(.success(()))
            } catch {
                body(.failure(error))
            }
        }
    }

    package var mayRefuseAppends: Bool { false }

    package func leaderTerm(shard: Int) -> UInt64 { 0 }

    package func confirmRefusal(shard: Int, term: UInt64) async -> Bool { true }
}

/// Where an appended entry sits: its shard and index, plus where the log keeps it.
package struct ShardLogPosition: Sendable {
    package var shard: Int
    package var index: UInt64
    /// The local write-ahead log's sequence number of the record holding the entry, or the Raft index of the entry
    /// in the shard's group.
    package var sequence: UInt64
    /// The Raft term the entry was proposed in (0 for a local log): committed means committed in this term.
    package var term: UInt64 = 0

    /// Makes the value from its parts: the memberwise initializer, for the modules above this one.
    package init(shard: Int, index: UInt64, sequence: UInt64, term: UInt64 = 0) {
        self.shard = shard
        self.index = index
        self.sequence = sequence
        self.term = term
    }
}
