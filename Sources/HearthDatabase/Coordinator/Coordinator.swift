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

    /// Runs a multi-shard write through two-phase commit, up to the point where every part is logged: performs each
    /// step the transaction's `TwoPhaseCommit` gives and reports the answer back, until it ends. Every decision about
    /// a failure (what to give back, what to report) is the value's.
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
            together: self.shards.commitsTogether && Self.fitsOneRecord(mutations), reruns: reruns)
        var step = machine.begin()
        while true {
            if case .end(let end) = step {
                return try await self.ended(
                    end, machine: machine, namespace: namespace, mutations: mutations, conditions: conditions,
                    now: now, origin: origin)
            }
            step = machine.next(
                after: await self.perform(step, id, namespace: namespace, spineValues: machine.spineValues))
        }
    }

    /// Performs one step of transaction `id` and says what came back.
    private func perform(
        _ step: TwoPhaseCommit.Step, _ id: TransactionID, namespace: String, spineValues: [Path: Node]
    ) async -> TwoPhaseCommit.Event {
        do {
            switch step {
            case .commitTogether(let anchor, let parts):
                return .committedTogether(
                    try await self.shards.commitTogether(anchor: anchor, id, parts: parts, spineValues: spineValues))
            case .lock(let shard, let paths):
                return .locked(try await self.shards.lock(shard: shard, id, namespace: namespace, paths: paths))
            case .confirmRefusal(let shard, let term):
                return .refusalConfirmed(try await self.shards.confirmRefusal(shard: shard, term: term))
            case .prepare(let shard, let intent, let term):
                return .prepared(try await self.shards.prepare(shard: shard, id, intent, readLockTerm: term))
            case .waitUntilOrdered(let positions):
                for position in positions { try await self.log.waitUntilOrdered(position) }
                return .ordered
            case .decide(let anchor, let part, let term):
                return .decided(
                    try await self.shards.decide(
                        shard: anchor, id, commit: true, part: part, spineValues: spineValues, readLockTerm: term))
            case .finish(let shard, let commit):
                return .finished(try await self.shards.finish(shard: shard, id, commit: commit))
            case .unlock(let shard):
                await self.shards.unlock(shard: shard, id)
                return .released
            case .pauseBeforeRerun(let shard, let reruns):
                try await self.shards.pauseBeforeRerun(shard: shard, reruns: reruns)
                return .paused
            case .end:
                preconditionFailure("transaction \(id) performed its end as a step")
            }
        } catch {
            return .failed(error, certainlyNotCarriedOut: Self.certainlyNotCarriedOut(error))
        }
    }

    /// What the write became once its transaction ended.
    private func ended(
        _ end: TwoPhaseCommit.End, machine: TwoPhaseCommit, namespace: String, mutations: [Mutation],
        conditions: [WriteCondition], now: Int64, origin: WriteOrigin?
    ) async throws -> PendingWrite {
        switch end {
        case .committed(let positions, let resolved, let forgetAt):
            var pending = PendingWrite(
                view: self.view, log: self.log,
                state: .committed(positions, CommitFeed.merge(resolved, spineValues: machine.spineValues)))
            if let forgetAt {
                pending.finished = { [forgets = self.forgets, id = machine.transaction] in
                    forgets.add(id, anchor: forgetAt)
                }
            }
            return pending
        case .stale(let through):
            return PendingWrite(
                view: self.view, log: self.log,
                state: .stale(
                    namespace: namespace, path: conditions.first?.path ?? .root, through: through, origin: origin))
        case .duplicate(let through):
            return PendingWrite(view: self.view, log: self.log, state: .duplicate(through: through))
        case .rerun(let escalated, let reruns):
            return try await self.transaction(
                namespace: namespace, mutations: mutations, conditions: conditions, now: now, origin: origin,
                escalated: escalated, reruns: reruns)
        case .failed(let error):
            throw error
        }
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
        // By index, each read where the array holds it (`sourceJSONByteCount()` borrows it: iterated, or matched on
        // a copy, each was copied out whole).
        for index in mutations.indices { bytes += mutations[index].sourceJSONByteCount() }
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
