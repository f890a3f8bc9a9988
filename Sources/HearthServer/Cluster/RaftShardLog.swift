import HearthCluster
import Synchronization

/// Every shard's log as its Raft group: the seam `ShardLog` over a node's `ReplicationService`, one group per shard.
///
/// - **Leader.** `append` proposes the entry (the shard's actor has already applied it to its state machine, ahead
///   of commit, so the next write is decided while this one replicates) and keeps its `ShardApplied` until the
///   group commits that index; then it goes to the read view, and waiters resume.
/// - **Follower or learner.** Committed entries come from the leader; the shard's actor applies them (the same
///   deterministic `apply`) and the result goes to the read view.
/// - **A new leader** takes appends only once it has applied everything its predecessors committed (its first
///   entry of the term, a no-op, has committed). **A leader that steps down** had applied entries that may never
///   commit: its actor's state machine is rebuilt from the committed entries before the next one is applied.
///
/// A wait resolves when the entry's index commits: successfully if the entry there has the term it was proposed in,
/// with `ShardNotCommittedError` if another leader's entry took its place.
final class RaftShardLog: ShardLog {
    /// Applies a committed entry on a shard that did not propose it (follower path); rebuilds from scratch when
    /// asked to (a leader that stepped down), replaying the committed entries given.
    struct Applier: Sendable {
        var apply: @Sendable (_ shard: Int, _ entry: ShardEntry, _ index: UInt64) async -> ShardApplied
        var rebuild: @Sendable (_ shard: Int, _ committed: [(ShardEntry, UInt64)]) async -> Void
    }

    private struct Waiter {
        var raftIndex: UInt64
        var term: UInt64
        var deadline: ContinuousClock.Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    /// One shard's bookkeeping.
    private struct Shard {
        /// Entries this node proposed and applied ahead of commit, by Raft index.
        var pending: [UInt64: (term: UInt64, applied: ShardApplied)] = [:]
        /// The highest Raft index delivered to the view.
        var delivered: UInt64 = 0
        /// While leading: the term, and the index of its first entry (the no-op), which must be delivered before
        /// this node takes appends.
        var leadership: (term: UInt64, firstIndex: UInt64)?
        /// The actor's machine ran ahead of commit and must be rebuilt before the next follower apply.
        var needsRebuild = false
        /// The leader last observed, and how many times it changed (for `/.metrics`).
        var leader: NodeID?
        var leaderChanges: UInt64 = 0
        var waiters: [Waiter] = []
    }

    private let service: ReplicationService
    private let view: DatabaseView
    private let applier: Mutex<Applier?> = Mutex(nil)
    private let shards: Mutex<[Int: Shard]>
    /// Set when the node stops replicating: nothing commits here any more, so waits fail at once.
    private let isClosed = Atomic(false)
    /// How long a write waits for its entry to commit before its outcome is reported unknown (its shard may have
    /// lost its majority: a leader cut off from the others keeps taking entries until it notices).
    let commitTimeout: Duration

    /// - Parameter delivered: per shard, the Raft index through which recovery already applied the committed
    ///   entries (the groups deliver them again after a restart; those are skipped).
    init(
        service: ReplicationService, view: DatabaseView, shardCount: Int, delivered: [Int: UInt64] = [:],
        commitTimeout: Duration = .seconds(10)
    ) {
        self.commitTimeout = commitTimeout
        self.service = service
        self.view = view
        self.shards = Mutex(
            Dictionary(
                uniqueKeysWithValues: (0..<shardCount).map { shard in
                    var state = Shard()
                    state.delivered = delivered[shard] ?? 0
                    return (shard, state)
                }))
    }

    /// Connects the shards' actors (they are created after the log).
    func setApplier(_ applier: Applier) {
        self.applier.withLock { $0 = applier }
    }

    /// How many times `shard`'s group has had a new leader, as this node saw it.
    func leaderChanges(shard: Int) -> UInt64 {
        self.shards.withLock { $0[shard]?.leaderChanges ?? 0 }
    }

    /// The Raft index through which `shard`'s committed entries have reached the read view.
    func delivered(shard: Int) -> UInt64 {
        self.shards.withLock { $0[shard]?.delivered ?? 0 }
    }

    /// The leader of `shard`'s group as this node's replica knows it (nil during an election).
    func leader(shard: Int) -> NodeID? {
        self.service.host(RaftGroupID(UInt32(shard)))?.softState.leader
    }

    func leaderTerm(shard: Int) -> UInt64 {
        self.service.host(RaftGroupID(UInt32(shard)))?.softState.term ?? 0
    }

    func acceptsAppends(shard: Int) -> Bool {
        guard let host = self.service.host(RaftGroupID(UInt32(shard))) else { return false }
        let state = host.softState
        guard !host.isTransferring else { return false }
        return self.shards.withLock { shards in
            guard state.role == .leader, let leadership = shards[shard]?.leadership, leadership.term == state.term,
                shards[shard]?.needsRebuild == false
            else { return false }
            return (shards[shard]?.delivered ?? 0) >= leadership.firstIndex
        }
    }

    func append(_ entry: ShardEntry, applied: ShardApplied) -> ShardLogPosition {
        let bytes = ShardLogRecord.encode(entry, shard: applied.shard, index: applied.index)
        let proposal = self.service.host(RaftGroupID(UInt32(applied.shard)))?.propose(bytes)
        guard case .accepted(let raftIndex, let term)? = proposal else {
            // Leadership moved between the actor's check and the proposal: its machine applied an entry that will
            // never be logged, so it is rebuilt; the write's wait fails.
            self.shards.withLock { $0[applied.shard]?.needsRebuild = true }
            return ShardLogPosition(shard: applied.shard, index: applied.index, sequence: 0, term: 0)
        }
        self.shards.withLock { $0[applied.shard]?.pending[raftIndex] = (term, applied) }
        return ShardLogPosition(shard: applied.shard, index: applied.index, sequence: raftIndex, term: term)
    }

    func waitUntilCommitted(_ positions: [ShardLogPosition]) async throws {
        for position in positions {
            guard position.term > 0 else { throw ShardNotCommittedError(shard: position.shard) }
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Bool? = self.shards.withLock { shards in
                    if self.isClosed.load(ordering: .relaxed) { return false }
                    guard var shard = shards[position.shard] else { return false }
                    if shard.delivered >= position.sequence {
                        return self.committedTerm(shard: position.shard, index: position.sequence) == position.term
                    }
                    shard.waiters.append(
                        Waiter(
                            raftIndex: position.sequence, term: position.term,
                            deadline: ContinuousClock.now + self.commitTimeout, continuation: continuation))
                    shards[position.shard] = shard
                    return nil
                }
                switch outcome {
                case true?: continuation.resume()
                case false? where self.isClosed.load(ordering: .relaxed):
                    continuation.resume(throwing: NodeStoppingError())
                case false?: continuation.resume(throwing: ShardNotCommittedError(shard: position.shard))
                case nil: break
                }
            }
        }
    }

    func waitUntilOrdered(_ position: ShardLogPosition) async throws {
        try await self.waitUntilCommitted([position])
    }

    /// Fails every wait whose deadline passed with `CommitTimeoutError` (the replication loop calls it).
    func expireWaits(now: ContinuousClock.Instant = .now) {
        let expired = self.shards.withLock { shards -> [(Int, Waiter)] in
            var expired: [(Int, Waiter)] = []
            for shard in shards.keys {
                guard let waiters = shards[shard]?.waiters, waiters.contains(where: { $0.deadline <= now }) else {
                    continue
                }
                expired += waiters.filter { $0.deadline <= now }.map { (shard, $0) }
                shards[shard]?.waiters.removeAll { $0.deadline <= now }
            }
            return expired
        }
        for (shard, waiter) in expired {
            waiter.continuation.resume(throwing: CommitTimeoutError(shard: shard, waited: self.commitTimeout))
        }
    }

    /// The node stops replicating: every wait still pending fails with `NodeStoppingError`, and so does every later
    /// one (nothing will commit here any more).
    func close() {
        let waiters = self.shards.withLock { shards -> [Waiter] in
            self.isClosed.store(true, ordering: .relaxed)
            var all: [Waiter] = []
            for shard in shards.keys {
                all += shards[shard]?.waiters ?? []
                shards[shard]?.waiters.removeAll()
            }
            return all
        }
        for waiter in waiters { waiter.continuation.resume(throwing: NodeStoppingError()) }
    }

    /// The group's role changed: leading in a new term starts the wait for its no-op; losing the lead marks the
    /// actor's machine for a rebuild if it ran ahead.
    func observe(shard: Int, _ state: RaftSoftState) {
        guard let host = self.service.host(RaftGroupID(UInt32(shard))) else { return }
        let lastIndex = host.lastIndex
        self.shards.withLock { shards in
            guard var entry = shards[shard] else { return }
            if let leader = state.leader, leader != entry.leader {
                entry.leader = leader
                entry.leaderChanges += 1
            }
            if state.role == .leader {
                entry.leadership = (state.term, lastIndex)
            } else if entry.leadership != nil {
                entry.leadership = nil
                if !entry.pending.isEmpty { entry.needsRebuild = true }
                entry.pending.removeAll()
            }
            shards[shard] = entry
        }
    }

    /// Committed entries of `shard`'s group, in order (the group's host calls this from its one run loop, once per
    /// Ready): their changes go to the read view in one batch, then the writes waiting for them resume.
    func committed(shard: Int, _ entries: [RaftEntry]) async {
        guard let applier = self.applier.withLock({ $0 }) else {
            preconditionFailure("RaftShardLog delivered commits before its applier was set")
        }
        let alreadyDelivered = self.shards.withLock { $0[shard]?.delivered ?? 0 }
        let fresh = entries.filter { $0.index > alreadyDelivered }
        guard let last = fresh.last else { return }
        var batch: [ShardApplied] = []
        for entry in fresh {
            guard case .command(let bytes) = entry.payload else { continue }
            let pending = self.shards.withLock { $0[shard]?.pending.removeValue(forKey: entry.index) }
            if let pending, pending.term == entry.term {
                batch.append(pending.applied)
                continue
            }
            if self.shards.withLock({ $0[shard]?.needsRebuild ?? false }) {
                await applier.rebuild(shard, self.committedCommands(shard: shard, through: entry.index - 1))
                self.shards.withLock { $0[shard]?.needsRebuild = false }
            }
            guard case .entry(_, let index, let shardEntry)? = try? ShardLogRecord(decoding: bytes) else {
                preconditionFailure("shard \(shard): committed entry \(entry.index) is not a shard entry")
            }
            batch.append(await applier.apply(shard, shardEntry, index))
        }
        if !batch.isEmpty { self.view.receive(batch, through: 0) }
        let terms = Dictionary(uniqueKeysWithValues: fresh.map { ($0.index, $0.term) })
        let resumed = self.shards.withLock { shards -> [Waiter] in
            guard var state = shards[shard] else { return [] }
            state.delivered = last.index
            let ready = state.waiters.filter { $0.raftIndex <= last.index }
            state.waiters.removeAll { $0.raftIndex <= last.index }
            shards[shard] = state
            return ready
        }
        for waiter in resumed {
            let term = terms[waiter.raftIndex] ?? self.committedTerm(shard: shard, index: waiter.raftIndex)
            if term == waiter.term {
                waiter.continuation.resume()
            } else {
                waiter.continuation.resume(throwing: ShardNotCommittedError(shard: shard))
            }
        }
    }

    /// The term of the committed entry at `index` of `shard`'s group, from its log.
    private func committedTerm(shard: Int, index: UInt64) -> UInt64? {
        self.service.host(RaftGroupID(UInt32(shard)))?.term(at: index)
    }

    /// Every committed shard command through `index`, decoded, for a rebuild.
    private func committedCommands(shard: Int, through index: UInt64) -> [(ShardEntry, UInt64)] {
        guard let host = self.service.host(RaftGroupID(UInt32(shard))) else { return [] }
        return host.entries(through: index).compactMap { entry in
            guard case .command(let bytes) = entry.payload,
                case .entry(_, let shardIndex, let shardEntry)? = try? ShardLogRecord(decoding: bytes)
            else { return nil }
            return (shardEntry, shardIndex)
        }
    }
}

/// A write's entry was not committed: leadership of its shard moved before it was, and another leader's entry took
/// its place. Nothing of the write was applied; it can be retried.
struct ShardNotCommittedError: Error, Sendable, CustomStringConvertible {
    var shard: Int

    var description: String {
        "The write was not committed: leadership of shard \(self.shard) moved while it was being replicated. "
            + "Nothing of it was applied; retry it."
    }
}

/// The node stopped replicating while a write waited for its commit: the write may or may not have been applied.
struct NodeStoppingError: Error, Sendable, CustomStringConvertible {
    var description: String {
        "This node is shutting down; the write may or may not have been applied. Read the data through another node "
            + "before retrying."
    }
}

/// A write's entry was not seen committed in time: its shard may have lost its majority (a leader cut off from the
/// others keeps taking entries until it notices), so the write may or may not take effect.
struct CommitTimeoutError: Error, Sendable, CustomStringConvertible {
    var shard: Int
    var waited: Duration

    var description: String {
        "The write was not confirmed within \(self.waited.components.seconds) s: shard \(self.shard) may have lost "
            + "its majority. It may or may not have been applied; read the data before retrying."
    }
}
