package import HearthCore
import HearthSystem
public import HearthWire

/// Routes every write to the shards it touches and runs two-phase commit for writes that span shards.
///
/// A write inside one shard goes straight to that shard's actor, which checks its condition, appends it and
/// returns at once; a write spanning shards (a multi-path update over several shards, or any write on a spine path
/// such as `/posts` or `/`) is driven through a `TwoPhaseCommit`. Either way `submit` returns as soon as the write
/// has its place in the logs, so one client can pipeline writes; `PendingWrite.outcome()` waits until it is
/// committed and shown to readers and listeners.
public final class Coordinator: Sendable {
    package let router: ShardRouter
    let shards: any ShardClient
    package let log: any ShardLog
    let view: DatabaseView
    /// Decisions the anchors may forget, because every part of their transaction finished.
    package let forgets = DecisionsToForget()
    /// The multi-shard transactions running here, which this node claims when a resolver asks.
    package let running = RunningTransactions()
    private let random: Lock<any RandomNumberGenerator & Sendable>

    /// A coordinator over shards reached through `shards` (a cluster node's leaders may be other nodes).
    /// - Parameter random: where transaction ids come from (a simulation's seeded generator in tests).
    package init(
        router: ShardRouter, shards: any ShardClient, log: any ShardLog, view: DatabaseView,
        random: any RandomNumberGenerator & Sendable = BufferedSystemRandom()
    ) {
        self.random = Lock(random)
        self.router = router
        self.shards = shards
        self.log = log
        self.view = view
    }

    /// A coordinator over shard actors that all live in this process.
    convenience init(router: ShardRouter, shards: [ShardActor], log: any ShardLog, view: DatabaseView) {
        self.init(router: router, shards: LocalShardClient(actors: shards), log: log, view: view)
    }

    /// Applies `mutations` atomically (all or nothing) if every one of `conditions` holds (a stale answer carries
    /// the current value at the first condition's path). A write whose `origin` a shard already applied is the same
    /// write sent again: it is answered as committed (with no mutations) once the first is, and not applied again.
    /// - Returns: `.committed` once the write is durable, visible in the read view and fanned out.
    public func write(
        namespace: String,
        mutations: [Mutation],
        conditions: [WriteCondition],
        now: Int64,
        origin: WriteOrigin? = nil
    ) async throws -> WriteOutcome {
        try await self.submit(
            namespace: namespace, mutations: mutations, conditions: conditions, now: now, origin: origin
        ).outcome()
    }

    /// Orders a write without waiting for it to become durable, so one client can pipeline many writes.
    ///
    /// When this returns the write has its place in every log it touches: every later submission (from anyone)
    /// that overlaps it is ordered after it. Await `PendingWrite.outcome()` before acknowledging.
    public func submit(
        namespace: String,
        mutations: [Mutation],
        conditions: [WriteCondition],
        now: Int64,
        origin: WriteOrigin? = nil
    ) async throws -> PendingWrite {
        guard !mutations.isEmpty else { return PendingWrite(view: self.view, log: self.log, state: .committed([], [])) }
        let participants = self.participants(namespace: namespace, mutations: mutations, conditions: conditions)
        if participants.count == 1, let only = participants.first {
            let write = ShardWrite(namespace: namespace, mutations: mutations, now: now, origin: origin)
            switch try await self.shards.write(shard: only, write, conditions: conditions) {
            case .appended(let position, let resolved):
                return PendingWrite(view: self.view, log: self.log, state: .committed([position], resolved))
            case .conditionFailed(let through):
                return PendingWrite(
                    view: self.view, log: self.log,
                    state: .stale(
                        namespace: namespace, path: conditions.first?.path ?? .root, through: [only: through],
                        origin: origin)
                )
            case .duplicate(let through):
                return PendingWrite(view: self.view, log: self.log, state: .duplicate(through: [only: through]))
            case .needsAllShards:
                return try await self.transaction(
                    namespace: namespace, mutations: mutations, conditions: conditions, now: now, origin: origin,
                    escalated: true)
            }
        }
        return try await self.transaction(
            namespace: namespace, mutations: mutations, conditions: conditions, now: now, origin: origin,
            escalated: false)
    }

    /// The shards a write touches: every shard its mutations and conditions route to.
    func participants(namespace: String, mutations: [Mutation], conditions: [WriteCondition]) -> Set<Int> {
        var participants = Set<Int>()
        for mutation in mutations {
            participants.formUnion(self.router.shards(namespace: namespace, mutation: mutation.path))
        }
        for condition in conditions {
            participants.formUnion(self.router.shards(namespace: namespace, mutation: condition.path))
        }
        return participants
    }

    /// A fresh transaction id.
    func nextTransactionID() -> TransactionID {
        self.random.withLock { TransactionID.random(using: &$0) }
    }

    /// Runs a multi-shard write through two-phase commit, up to the point where every part is logged.
    /// - Parameter reruns: how many times the write already ran again because a refusal could not be confirmed.
    fileprivate func transaction(
        namespace: String, mutations: [Mutation], conditions: [WriteCondition], now: Int64, origin: WriteOrigin?,
        escalated: Bool, reruns: Int = 0
    ) async throws -> PendingWrite {
        let id = self.nextTransactionID()
        self.running.begin(id)
        defer { self.running.end(id) }
        var machine = TwoPhaseCommit(
            transaction: id, namespace: namespace, mutations: mutations, conditions: conditions, now: now,
            origin: origin, router: self.router, escalated: escalated,
            together: self.shards.commitsTogether && Self.fitsOneRecord(mutations))
        var directives = machine.start()
        var positions: [ShardLogPosition] = []
        var resolved: [[ResolvedMutation]] = []
        do {
            while let directive = directives.first {
                directives.removeFirst()
                switch directive {
                case .commitTogether(let anchor, let parts):
                    let outcome = try await self.shards.commitTogether(
                        anchor: anchor, id, parts: parts, spineValues: machine.spineValues)
                    guard case .committed(let logged, let resolvedParts) = outcome else {
                        directives += machine.onObstructed()
                        continue
                    }
                    machine.onCommittedTogether()
                    return PendingWrite(
                        view: self.view, log: self.log,
                        state: .committed(logged, CommitFeed.merge(resolvedParts, spineValues: machine.spineValues)))
                case .lockAndRead(let participants, let paths):
                    var nodes: [Int: [Node]] = [:]
                    var through: [Int: UInt64] = [:]
                    for shard in participants {
                        machine.onLockRequested(shard)
                        let read = try await self.shards.lock(shard: shard, id, namespace: namespace, paths: paths)
                        (nodes[shard], through[shard]) = (read.nodes, read.through)
                        machine.onLocked(shard, term: read.term)
                    }
                    directives += machine.onRead(nodes, through: through)
                case .unrepresentable(_, let error):
                    // The read locks go with the rest of what this transaction holds (`release`).
                    throw error
                case .conditionFailed(let participants, let through):
                    // What the locks read may include entries a deposed leader applied and nobody will commit: the
                    // refusal stands only once every shard read confirms it, else the transaction runs again.
                    var unconfirmed: Int?
                    for shard in participants where unconfirmed == nil {
                        let isConfirmed =
                            (try? await self.shards.confirmRefusal(shard: shard, term: machine.readLockTerm(shard) ?? 0))
                            ?? false
                        if !isConfirmed { unconfirmed = shard }
                    }
                    for shard in participants { await self.shards.unlock(shard: shard, id) }
                    if let unconfirmed {
                        try await self.shards.pauseBeforeRerun(shard: unconfirmed, reruns: reruns + 1)
                        return try await self.transaction(
                            namespace: namespace, mutations: mutations, conditions: conditions, now: now,
                            origin: origin, escalated: escalated, reruns: reruns + 1)
                    }
                    return PendingWrite(
                        view: self.view, log: self.log,
                        state: .stale(
                            namespace: namespace, path: conditions.first?.path ?? .root, through: through,
                            origin: origin))
                case .prepare(let parts, let plan):
                    var prepared: [ShardLogPosition] = []
                    for (shard, intent) in parts {
                        let term = machine.readLockTerm(shard)
                        switch try await self.shards.prepare(shard: shard, id, intent, readLockTerm: term) {
                        case .prepared(let position):
                            prepared.append(position)
                            machine.onPartPrepared(shard)
                        case .needsAllShards:
                            return try await self.rerunOverEveryShard(
                                id, prepared: prepared, plan: plan, namespace: namespace, mutations: mutations,
                                conditions: conditions, now: now, origin: origin, escalated: escalated)
                        case .duplicate(let through):
                            await self.release(id, machine.release())
                            return PendingWrite(
                                view: self.view, log: self.log, state: .duplicate(through: [shard: through]))
                        }
                    }
                    for position in prepared { try await self.log.waitUntilOrdered(position) }
                    directives += machine.onPrepared()
                case .decide(let anchor, let part):
                    let decided: ShardDecideOutcome
                    do {
                        decided = try await self.shards.decide(
                            shard: anchor, id, commit: true, part: part, spineValues: machine.spineValues,
                            readLockTerm: machine.readLockTerm(anchor))
                    } catch {
                        machine.onDecisionFailed(certainlyNotCarriedOut: Self.certainlyNotCarriedOut(error))
                        throw error
                    }
                    let position: ShardLogPosition
                    let anchorPart: [ResolvedMutation]
                    switch decided {
                    case .logged(let logged, let resolvedPart):
                        (position, anchorPart) = (logged, resolvedPart)
                    case .needsAllShards:
                        return try await self.rerunOverEveryShard(
                            id, prepared: [], plan: part.plan, namespace: namespace, mutations: mutations,
                            conditions: conditions, now: now, origin: origin, escalated: escalated, preparedAll: true)
                    case .duplicate(let through):
                        await self.release(id, machine.release())
                        return PendingWrite(
                            view: self.view, log: self.log, state: .duplicate(through: [anchor: through]))
                    case .alreadyDecided(let commit, _):
                        // Only this coordinator commits; a decision already there is a resolver's abort, which
                        // found this transaction's parts prepared for too long.
                        machine.onDecisionAlreadyThere(commit: commit)
                        throw TransactionAbortedError(commit: commit)
                    }
                    positions.append(position)
                    resolved.append(anchorPart)
                    // The decision is logged: from here a failure releases nothing (`onDecided`). A finish must
                    // never be committed before the decision it reports (recovery would apply a part whose decision
                    // it cannot find): immediate on one log, a commit round with a log per shard.
                    directives += machine.onDecided()
                    try await self.log.waitUntilOrdered(position)
                case .finish(let participants, let commit):
                    for shard in participants {
                        guard let (position, mutations) = try await self.shards.finish(shard: shard, id, commit: commit)
                        else {
                            // A resolver finished this part first; its finish may not be committed yet, so the
                            // anchor keeps the decision (the resolver's bookkeeping, not ours, may forget it).
                            machine.onFinishedByResolver()
                            continue
                        }
                        positions.append(position)
                        resolved.append(mutations)
                    }
                }
            }
        } catch {
            await self.release(id, machine.release())
            throw error
        }
        return PendingWrite(
            view: self.view, log: self.log,
            state: .committed(positions, CommitFeed.merge(resolved, spineValues: machine.spineValues)),
            finished: { [forgets = self.forgets, anchor = machine.plan.anchor, isForgettable = machine.isForgettable] in
                if isForgettable { forgets.add(id, anchor: anchor) }
            })
    }
}

extension Coordinator {
    /// Writes whose values' JSON passes this many bytes (imports, `writeSizeLimit=unlimited`) prepare part by part
    /// even where the parts could commit together: one log record holding every part of a gigabyte import would be
    /// built whole in memory, beside the parts. Ordinary writes are below it (the default `--max-write-bytes`).
    static let togetherByteLimit = 16 << 20

    /// Whether the write's values are small enough to go into one log record together (`togetherByteLimit`). Values
    /// parsed from a realtime message keep no text and count nothing: the message size limit bounds them.
    static func fitsOneRecord(_ mutations: [Mutation]) -> Bool {
        var bytes = 0
        for case .set(_, let value) in mutations { bytes += value.sourceJSON?.count ?? 0 }
        return bytes <= Self.togetherByteLimit
    }

    /// Whether a shard command that threw `error` certainly appended nothing: this node or the leader it asked
    /// refused it, or it could not be sent. A call whose answer was lost may have been carried out.
    static func certainlyNotCarriedOut(_ error: any Error) -> Bool {
        if error is ShardNotLeaderError || error is ShardReadLockLostError || error is UnrepresentableIncrementError {
            return true
        }
        guard let call = error as? ShardCallError else { return false }
        switch call.kind {
        case .noLeader, .unreachable, .failed: return true
        case .timedOut, .connectionLost, .deposed: return false
        }
    }

    /// A transaction failed before its decision was logged: aborts its prepared parts and drops its read locks, as
    /// `TwoPhaseCommit.release()` decided (nothing once the decision is logged). Best effort: a shard whose
    /// leadership moved cannot take the abort here, and its new leader's state machine never held the lock; the part
    /// stays prepared there until the transaction is resolved.
    fileprivate func release(_ id: TransactionID, _ release: TwoPhaseCommit.Release?) async {
        guard let release else { return }
        for shard in release.abort {
            _ = try? await self.shards.finish(shard: shard, id, commit: false)
        }
        for shard in release.unlock { await self.shards.unlock(shard: shard, id) }
    }
}

extension Coordinator {
    /// A part landed below a spine leaf: abort what was prepared, release the read locks, and run the write again
    /// as a transaction over every shard that first clears the leaf.
    fileprivate func rerunOverEveryShard(
        _ id: TransactionID, prepared: [ShardLogPosition], plan: ShardTransactionPlan, namespace: String,
        mutations: [Mutation], conditions: [WriteCondition], now: Int64, origin: WriteOrigin?, escalated: Bool,
        preparedAll: Bool = false
    ) async throws -> PendingWrite {
        precondition(!escalated, "transaction \(id) still lands below a spine leaf after clearing it")
        let others = plan.participants.filter { $0 != plan.anchor }
        let abortedShards = preparedAll ? others : Array(others.prefix(prepared.count))
        for shard in abortedShards { _ = try await self.shards.finish(shard: shard, id, commit: false) }
        for shard in plan.participants { await self.shards.unlock(shard: shard, id) }
        if preparedAll { self.forgets.add(id, anchor: plan.anchor) }
        return try await self.transaction(
            namespace: namespace, mutations: mutations, conditions: conditions, now: now, origin: origin,
            escalated: true)
    }
}

/// A write that has its place in the logs but may not be committed yet.
public struct PendingWrite: Sendable {
    package enum State: Sendable {
        /// Logged at these positions; resolved to these mutations.
        case committed([ShardLogPosition], [ResolvedMutation])
        /// The condition failed against the data as of these shard indexes; `origin` is the write's, which may be
        /// why it failed (the same write, sent again, already applied).
        case stale(namespace: String, path: Path, through: [Int: UInt64], origin: WriteOrigin?)
        /// The same write was applied before (it names an origin a shard remembers), committed through these
        /// shard indexes.
        case duplicate(through: [Int: UInt64])
    }

    let view: DatabaseView
    let log: any ShardLog
    let state: State
    /// Called once every entry of a transaction is committed (its anchor may then forget the decision).
    var finished: (@Sendable () -> Void)?

    /// Makes the value from its parts: the memberwise initializer, for the modules above this one.
    package init(view: DatabaseView, log: any ShardLog, state: State, finished: (@Sendable () -> Void)? = nil) {
        self.view = view
        self.log = log
        self.state = state
        self.finished = finished
    }

    /// Whether a condition failed, so nothing will be written.
    public var isStale: Bool {
        if case .stale = self.state { return true }
        return false
    }

    /// Waits until the write is committed, applied to the read view and fanned out, and returns what became of it.
    ///
    /// A failed condition is answered only once the read view shows everything the condition was checked against,
    /// so the value that beat the write reaches this client's listeners before the "stale" answer does. A named
    /// write whose condition failed because its first send applied (a transaction read under locks sees the value
    /// it wrote) is then answered as committed: the view holds every origin applied up to what the check saw.
    public func outcome() async throws -> WriteOutcome {
        switch self.state {
        case .committed(let positions, let resolved):
            try await self.log.waitUntilCommitted(positions)
            self.finished?()
            for position in positions {
                try await self.view.waitUntilApplied(shard: position.shard, through: position.index)
            }
            return .committed(resolved)
        case .stale(let namespace, let path, let through, let origin):
            for (shard, index) in through { try await self.view.waitUntilApplied(shard: shard, through: index) }
            if let origin, self.view.hasApplied(origin) { return .committed([]) }
            return .conditionFailed(current: self.view.root(namespace).node(at: path))
        case .duplicate(let through):
            for (shard, index) in through { try await self.view.waitUntilApplied(shard: shard, through: index) }
            return .committed([])
        }
    }
}
