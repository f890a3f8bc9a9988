import HearthCluster
import HearthDatabase
import HearthSystem
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
/// with `ShardNotCommittedError` if another leader's entry took its place. The committed terms are kept per shard
/// (`CommittedTerms`), so this holds after the log was compacted past the entry too.
///
/// Snapshots (`RaftShardLog+Snapshots.swift`): once a shard's log has grown past the policy since its last snapshot,
/// the snapshotter is asked for one; a snapshot from the leader replaces the shard's state; a rebuild starts from the
/// latest stored snapshot.
final class RaftShardLog: ShardLog {
    /// Applies committed entries on a shard that did not propose them (follower path), a run of them in one hop
    /// onto the shard's actor; rebuilds when asked to (a leader that stepped down) from a snapshot's machine (or an
    /// empty one) and the committed entries after it; replaces the machine with one restored from a snapshot. An
    /// entry whose shard index does not follow the machine's is not applied (`ShardEntryGapError`): `apply` hands
    /// back what the entries before it applied and why, `rebuild` throws and keeps the machine.
    ///
    /// The shards' actors are created after the log (they append to it), so the log holds no applier: whoever
    /// delivers the groups' commits passes it with each delivery (`committed(shard:_:applying:)`,
    /// `install(shard:_:restoring:)`), and nothing can be delivered before it exists.
    struct Applier: Sendable {
        var apply:
            @Sendable (_ shard: Int, _ entries: [(ShardEntry, UInt64)]) async
                -> (applied: [ShardApplied], gap: ShardEntryGapError?)
        var rebuild:
            @Sendable (_ shard: Int, _ base: ShardStateMachine?, _ committed: [(ShardEntry, UInt64)])
                async throws(ShardEntryGapError) -> Void
        var restore: @Sendable (_ machine: ShardStateMachine) async -> Void
    }

    struct Waiter {
        var raftIndex: UInt64
        var term: UInt64
        var deadline: ContinuousClock.Instant
        var continuation: CheckedContinuation<Void, any Error>

        /// Whether the wait is over once the shard's committed log reaches `index`, whose entry is of `term`.
        func isSettled(committedThrough index: UInt64, term: UInt64) -> Bool {
            RaftShardLog.isSettled(raftIndex: self.raftIndex, term: self.term, committedThrough: index, ofTerm: term)
        }
    }

    /// Whether the fate of the entry proposed at `raftIndex` in `term` is known once the committed log reaches
    /// `index`, an entry of `committedTerm`: it is when the log reached its index, and also when a later term
    /// committed first. Terms never decrease along a log, so every entry after `index` is of `committedTerm` or
    /// later, and an older term's entry beyond it can never commit. Without the second rule, a write a leader
    /// appended just before it died (or was cut off) waited out the commit timeout whenever its successor's log was
    /// shorter: the coordinator of a transaction waiting so kept its other parts prepared, and their paths locked,
    /// for those 10 s (issue 35, target 5).
    static func isSettled(raftIndex: UInt64, term: UInt64, committedThrough index: UInt64, ofTerm committedTerm: UInt64)
        -> Bool
    {
        raftIndex <= index || term < committedTerm
    }

    /// One shard's bookkeeping.
    struct Shard {
        /// Entries this node proposed and applied ahead of commit, by Raft index.
        var pending: [UInt64: (term: UInt64, applied: ShardApplied)] = [:]
        /// The newest entry this node proposed (committed once `delivered` reaches it in its term).
        var lastProposed: ShardLogPosition?
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
        /// The terms of the committed entries delivered (or brought by a snapshot).
        var terms = CommittedTerms()
        /// The Raft index of the latest snapshot stored for the shard (0: none).
        var snapshotIndex: UInt64 = 0
        /// Bytes of commands delivered since that snapshot.
        var bytesSinceSnapshot = 0
    }

    /// Where a shard stood when the node opened: what recovery applied, from which snapshot, with which terms.
    struct Recovered: Sendable {
        /// The Raft index through which recovery applied the committed entries (the group delivers them again after
        /// a restart; those are skipped).
        var delivered: UInt64 = 0
        var terms = CommittedTerms()
        var snapshotIndex: UInt64 = 0
    }

    let service: ReplicationService
    let view: DatabaseView
    let store: ShardSnapshotStore
    let router: ShardRouter
    let policy: ShardSnapshotPolicy
    let shards: Lock<[Int: Shard]>
    /// Set when the node stops replicating: nothing commits here any more, so waits fail at once.
    private let isClosed = Atomic(false)
    /// Reads and writes refused because this node's replica of their shard stopped applying (`refuseIfHalted`).
    let haltedRefusals = Atomic<UInt64>(0)
    /// How long a write waits for its entry to commit before its outcome is reported unknown (its shard may have
    /// lost its majority: a leader cut off from the others keeps taking entries until it notices).
    let commitTimeout: Duration
    /// What commit deadlines are measured against.
    let clock: any NodeClock

    init(
        service: ReplicationService, view: DatabaseView, store: ShardSnapshotStore, router: ShardRouter,
        policy: ShardSnapshotPolicy, recovered: [Int: Recovered] = [:], commitTimeout: Duration = .seconds(10),
        clock: any NodeClock = .system
    ) {
        self.commitTimeout = commitTimeout
        self.clock = clock
        self.service = service
        self.view = view
        self.store = store
        self.router = router
        self.policy = policy
        self.shards = Lock(
            Dictionary(
                uniqueKeysWithValues: (0..<router.shardCount).map { shard in
                    var state = Shard()
                    let start = recovered[shard] ?? Recovered()
                    state.delivered = start.delivered
                    state.terms = start.terms
                    state.snapshotIndex = start.snapshotIndex
                    return (shard, state)
                }))
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

    var mayRefuseAppends: Bool { true }

    func append(_ entry: ShardEntry, applied: ShardApplied) throws(ShardNotLeaderError) -> ShardLogPosition {
        let bytes = ShardLogRecord.encode(entry, shard: applied.shard, index: applied.index)
        let host = self.service.host(RaftGroupID(UInt32(applied.shard)))
        // Proposed and recorded under one lock: the group may step down the moment it accepts the proposal, and its
        // run loop must then find the proposal pending (so the machine that applied it ahead is rebuilt before
        // another leader's entries reach it), never a proposal accepted but not yet recorded.
        let position = self.shards.withLock { shards -> ShardLogPosition? in
            guard case .accepted(let raftIndex, let term)? = host?.propose(bytes) else { return nil }
            let position = ShardLogPosition(
                shard: applied.shard, index: applied.index, sequence: raftIndex, term: term)
            shards[applied.shard]?.pending[raftIndex] = (term, applied)
            shards[applied.shard]?.lastProposed = position
            return position
        }
        guard let position else {
            // Leadership moved, or a transfer began, between the actor's check and the proposal: the actor takes the
            // entry back out of its machine. (Rebuilding the machine from the committed entries instead would also
            // drop this leader's proposals still in flight, and its next entries would reuse their indexes.)
            throw ShardNotLeaderError(shard: applied.shard)
        }
        return position
    }

    func confirmRefusal(shard: Int, term: UInt64) async -> Bool {
        let group = RaftGroupID(UInt32(shard))
        let tail = self.shards.withLock { shards -> ShardLogPosition? in
            guard let state = shards[shard], let last = state.lastProposed, last.sequence > state.delivered else {
                return nil
            }
            return last
        }
        guard (try? await self.service.readIndex(group, timeout: self.commitTimeout)) != nil,
            let state = self.service.host(group)?.softState, state.role == .leader, state.term == term
        else { return false }
        guard let tail else { return true }
        return (try? await self.waitUntilCommitted([tail])) != nil
    }

    func waitUntilCommitted(_ positions: [ShardLogPosition]) async throws {
        for position in positions {
            guard position.term > 0 else { throw ShardNotCommittedError(shard: position.shard) }
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Bool? = self.shards.withLock { shards in
                    if self.isClosed.load(ordering: .relaxed) { return false }
                    guard var shard = shards[position.shard] else { return false }
                    if shard.delivered >= position.sequence {
                        return shard.terms.term(at: position.sequence) == position.term
                    }
                    if let latest = shard.terms.term(at: shard.delivered),
                        Self.isSettled(
                            raftIndex: position.sequence, term: position.term, committedThrough: shard.delivered,
                            ofTerm: latest)
                    {
                        return false
                    }
                    shard.waiters.append(
                        Waiter(
                            raftIndex: position.sequence, term: position.term,
                            deadline: self.clock.now + self.commitTimeout, continuation: continuation))
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

    /// Writes waiting for their entries to commit.
    var waitingCount: Int { self.shards.withLock { $0.values.reduce(0) { $0 + $1.waiters.count } } }

    func waitUntilOrdered(_ position: ShardLogPosition) async throws {
        try await self.waitUntilCommitted([position])
    }

    /// Fails every wait whose deadline passed (by `now`, the clock's time unless given) with `CommitTimeoutError`
    /// (the replication loop calls it).
    func expireWaits(now: ContinuousClock.Instant? = nil) {
        let now = now ?? self.clock.now
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
    /// Ready): `applier` applies those this node did not propose, their changes go to the read view in one batch,
    /// then the writes waiting for them resume.
    /// - Returns: whether the shard's log has grown past the snapshot policy since its last snapshot (the caller
    ///   asks the snapshotter for one).
    /// - Throws: `RaftApplyHalt` after delivering the entries before one that is not a shard entry, or whose shard
    ///   index does not follow the shard's last one (the group's replica stops there; every other group goes on);
    ///   what reading the shard's latest snapshot throws, when a rebuild needs it.
    func committed(shard: Int, _ entries: [RaftEntry], applying applier: Applier) async throws -> Bool {
        let alreadyDelivered = self.shards.withLock { $0[shard]?.delivered ?? 0 }
        var fresh = entries.filter { $0.index > alreadyDelivered }
        var halt: RaftApplyHalt?
        var batch: [ShardApplied] = []
        // Other leaders' entries not applied yet: applied in one hop before anything that must come after them.
        var foreign: [Foreign] = []
        var bytes = 0
        for entry in fresh {
            guard case .command(let command) = entry.payload else { continue }
            let pending = self.shards.withLock { shards in Self.takePending(&shards, shard: shard, entry: entry) }
            if let pending {
                halt = await Self.apply(&foreign, into: &batch, shard: shard, with: applier)
                if halt != nil { break }
                bytes += command.count
                batch.append(pending)
                continue
            }
            let decoded: (entry: ShardEntry, index: UInt64)
            do {
                if self.shards.withLock({ $0[shard]?.needsRebuild ?? false }) {
                    halt = await Self.apply(&foreign, into: &batch, shard: shard, with: applier)
                    if halt != nil { break }
                    try await self.rebuild(shard: shard, through: entry.index - 1, with: applier)
                }
                decoded = try Self.shardEntry(command, at: entry, shard: shard)
            } catch let error as RaftApplyHalt {
                halt = error
                break
            }
            bytes += command.count
            foreign.append((decoded.entry, decoded.index, entry))
        }
        // An earlier entry than the one that stopped the loop may stop the group: the run still to apply precedes it.
        if let stop = await Self.apply(&foreign, into: &batch, shard: shard, with: applier) { halt = stop }
        if let halt { fresh.removeAll { $0.index >= halt.index } }
        guard let last = fresh.last else {
            if let halt { throw halt }
            return false
        }
        if halt == nil, self.shards.withLock({ $0[shard]?.needsRebuild ?? false }) {
            // The machine ran ahead as a leader and no command of another leader came to trigger the rebuild (only
            // no-ops did): rebuild it now, or its uncommitted prepares would hold locks no resolver sees, and this
            // node could never take appends for the shard again.
            do {
                try await self.rebuild(shard: shard, through: last.index, with: applier)
            } catch let error as RaftApplyHalt {
                halt = error
            }
        }
        self.view.receive(batch, shard: shard, position: last.index)
        let (resumed, terms, isDue) = self.shards.withLock { shards -> ([Waiter], CommittedTerms, Bool) in
            guard var state = shards[shard] else { return ([], CommittedTerms(), false) }
            for entry in fresh { state.terms.record(index: entry.index, term: entry.term) }
            state.delivered = last.index
            state.bytesSinceSnapshot += bytes
            let ready = state.waiters.filter { $0.isSettled(committedThrough: last.index, term: last.term) }
            state.waiters.removeAll { $0.isSettled(committedThrough: last.index, term: last.term) }
            shards[shard] = state
            return (ready, state.terms, self.policy.isDue(state))
        }
        Self.resume(resumed, terms: terms, shard: shard)
        if let halt { throw halt }
        return isDue
    }

    /// Rebuilds the shard's machine, which ran ahead of commit as a leader, from its committed state through `index`.
    /// - Throws: `RaftApplyHalt` when that state cannot be rebuilt — its entries skip or repeat an index, a damaged
    ///   log (the group's replica stops there);
    ///   what reading the stored snapshot throws.
    private func rebuild(shard: Int, through index: UInt64, with applier: Applier) async throws {
        let (base, commands) = try await self.committedState(shard: shard, through: index)
        do {
            try await applier.rebuild(shard, base, commands)
        } catch {
            let group = RaftGroupID(UInt32(shard))
            throw RaftApplyHalt(
                group: group, index: index + 1, term: self.service.host(group)?.term(at: index + 1) ?? 0,
                reason: "rebuilding the shard's state through entry \(index) found that \(error)", cause: .damagedLog)
        }
        self.shards.withLock { Self.rebuilt(&$0, shard: shard) }
    }

    /// A committed entry of another leader, decoded, waiting to be applied: the shard entry, its index in the
    /// shard's own log, and the group's entry that carried it.
    typealias Foreign = (entry: ShardEntry, index: UInt64, raft: RaftEntry)

    /// Applies the run of other leaders' entries in `foreign` (one hop onto the shard's actor), adds what they
    /// changed to `batch`, and empties it.
    /// - Returns: nil when every entry applied; else the group's halt at the first entry whose shard index does not
    ///   follow the shard's last one (the log is damaged), when the entries before it are applied and none after.
    private static func apply(
        _ foreign: inout [Foreign], into batch: inout [ShardApplied], shard: Int, with applier: Applier
    ) async -> RaftApplyHalt? {
        guard !foreign.isEmpty else { return nil }
        defer { foreign.removeAll() }
        let (applied, gap) = await applier.apply(shard, foreign.map { ($0.entry, $0.index) })
        batch += applied
        guard let gap else { return nil }
        let stopped = foreign[applied.count].raft
        return RaftApplyHalt(
            group: RaftGroupID(UInt32(shard)), index: stopped.index, term: stopped.term, reason: "\(gap)",
            cause: .damagedLog)
    }

    /// The machine's own application of committed command `entry`, when this node proposed it. Any other command
    /// committed while this node holds proposals of its own (or one at the same index from another term) means
    /// those proposals will never commit: the machine ran ahead of the log and is marked for a rebuild, whether or
    /// not the step-down was observed yet (a proposal can land just after `observe` cleared the last ones).
    static func takePending(_ shards: inout [Int: Shard], shard: Int, entry: RaftEntry) -> ShardApplied? {
        let own = shards[shard]?.pending.removeValue(forKey: entry.index)
        if let own, own.term == entry.term { return own.applied }
        let ranAhead =
            own != nil || shards[shard]?.pending.isEmpty == false
            || (shards[shard]?.lastProposed?.sequence ?? 0) >= entry.index
        if ranAhead {
            shards[shard]?.pending.removeAll()
            shards[shard]?.needsRebuild = true
        }
        return nil
    }

    /// The machine was rebuilt from committed state: no proposal may be taken as applied any more (the rebuilt machine
    /// does not hold it); one that commits after all is applied like another leader's entry. Every path that marks
    /// a rebuild clears the proposals already; this keeps the rule where the rebuild happens.
    static func rebuilt(_ shards: inout [Int: Shard], shard: Int) {
        shards[shard]?.needsRebuild = false
        shards[shard]?.pending.removeAll()
    }

    /// Resumes `waiters`: successfully when the committed entry at a waiter's index has the term it was proposed in.
    static func resume(_ waiters: [Waiter], terms: CommittedTerms, shard: Int) {
        for waiter in waiters {
            if terms.term(at: waiter.raftIndex) == waiter.term {
                waiter.continuation.resume()
            } else {
                waiter.continuation.resume(throwing: ShardNotCommittedError(shard: shard))
            }
        }
    }
}
