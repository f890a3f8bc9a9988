import HearthCore
package import HearthSystem
import HearthWire

/// The shell around one shard's state machine: it serialises the shard's commands, appends what the state machine
/// decides to the shard's log in the same turn (so log order is apply order), and parks commands that a prepared
/// transaction blocks until a transaction finishes here.
///
/// Nothing here waits for a disk: an append only queues the entry, so a hot location takes its next write while
/// earlier ones are still being made durable, and a transaction's locks last only from its prepare to its decision.
/// Where one log orders every shard (a single node), every shard's actor runs on one executor (the node's `WriteLoop`,
/// or a shared `ShardExecutor` in tests and simulations), so one shard's command can commit all of a transaction's
/// parts in its turn (`commitTogether`).
public actor ShardActor {
    public nonisolated let id: Int
    /// The shard's state machine. `nonisolated(unsafe)`: besides this actor's own methods, the write loop's turn
    /// reaches it on the executor's thread outside any job, through the nonisolated methods that first check they
    /// run there (`requireExecutor`): `writeNow`, `commitTogetherNow`, `tree` and `withMachine`. That is what `assumeIsolated`
    /// checks, without the two closure contexts it allocates and frees on every call (`withoutActuallyEscaping`):
    /// about nine a star on the loop, where every shard of a write's parts was reached through it.
    nonisolated(unsafe) private var machine: ShardStateMachine
    private let log: any ShardLog
    /// What this shard's commands run on (a `ShardExecutor` or the node's `WriteLoop`): shared by every shard of a
    /// log that orders them as one. Compared by identity.
    nonisolated let executor: any AnyObject & Sendable
    public nonisolated let unownedExecutor: UnownedSerialExecutor
    /// The node's write loop when it is `executor`: whether the caller runs on its thread is then one comparison
    /// (`requireExecutor`), not a question to the concurrency runtime.
    private nonisolated let loop: WriteLoop?
    private var blocked: [CheckedContinuation<Void, Never>] = []
    /// When each read lock held here was taken (leader memory, like the locks): a coordinator that vanished
    /// between its read and its prepare leaves them, and `expireReadLocks` drops them.
    private var readLockTimes: [TransactionID: ContinuousClock.Instant] = [:]
    /// Where this node, leading, logged the decisions its machine holds (they may not be committed yet). Decisions
    /// that arrived committed (as a follower, or by a rebuild) have none.
    private var decisionPositions: [TransactionID: ShardLogPosition] = [:]
    /// What read lock times are read from.
    private let clock: any NodeClock

    package init(
        machine: ShardStateMachine, log: any ShardLog, clock: any NodeClock = .system,
        executor: ShardExecutor = ShardExecutor()
    ) {
        self.init(
            machine: machine, log: log, clock: clock, executor: executor, unownedExecutor: executor.unownedExecutor)
    }

    /// A shard whose commands run on the node's write loop, with its turns: its machine leaves its writes' subtrees
    /// for the turn's end (`ShardStateMachine.defersSubtrees`).
    private init(machine: ShardStateMachine, log: LocalShardLog, clock: any NodeClock, loop: WriteLoop) {
        var machine = machine
        machine.defersSubtrees = true
        self.init(
            machine: machine, log: log, clock: clock, executor: loop, unownedExecutor: loop.asUnownedSerialExecutor(),
            loop: loop)
    }

    private init(
        machine: ShardStateMachine, log: any ShardLog, clock: any NodeClock, executor: any AnyObject & Sendable,
        unownedExecutor: UnownedSerialExecutor, loop: WriteLoop? = nil
    ) {
        self.id = machine.shard
        self.machine = machine
        self.log = log
        self.clock = clock
        self.executor = executor
        self.unownedExecutor = unownedExecutor
        self.loop = loop
    }

    /// Actors for `machines` over `log`: on one executor when the log appends entries of several shards together
    /// (so their transactions can commit at once), else each on its own.
    static func actors(
        for machines: [ShardStateMachine], log: any ShardLog, clock: any NodeClock = .system
    ) -> [ShardActor] {
        let executors = ShardExecutor.executors(count: machines.count, shared: log.appendsTogether)
        return zip(machines, executors).map { ShardActor(machine: $0, log: log, clock: clock, executor: $1) }
    }

    /// Actors for `machines` of a single node, every one on its write loop `loop`, over its one log: each turn of
    /// the loop ends with the log taking the subtrees the turn's entries touched from the shards as the turn left
    /// them (`LocalShardLog.endTurn`), once per subtree. When `view` asked for the shards' write sessions, the turn
    /// first offers it each machine's, with the index it stands at (`DatabaseView.offer(_:)`): before the turn's
    /// entries are handed on, so the view gets the offer before it receives the turn.
    static func actors(
        for machines: [ShardStateMachine], log: LocalShardLog, clock: any NodeClock = .system, loop: WriteLoop,
        view: DatabaseView? = nil
    ) -> [ShardActor] {
        let shards = machines.map { ShardActor(machine: $0, log: log, clock: clock, loop: loop) }
        log.holdTurns()
        view?.takeSessionsFromLoop()
        // The loop keeps this for its life and the shards keep the loop (their executor): held weakly, the shards
        // still go when the database does, and a late job's turn after a close still hands its entries on.
        let held = shards.map(WeakShard.init)
        loop.endTurns {
            guard let alive = WeakShard.alive(held) else {
                log.endTurnOfGoneShards()
                return
            }
            if let view, view.takeSessionsRequest() {
                view.offer(
                    alive.map { shard in
                        shard.withMachine { CommitFeed.SessionsOffer(index: $0.lastIndex, sessions: $0.sessions) }
                    })
            }
            log.endTurn { shard, namespace in alive[shard].tree(namespace) }
        }
        return shards
    }

    /// A shard the loop's turn end reaches without keeping it alive. A class, so each turn loads its reference where
    /// it is held: a struct of a weak reference read out of an array (`held.compactMap(\.actor)`) was copied first,
    /// a weak reference's copy and destroy (two atomic updates of the shard's side table) per shard per turn.
    private final class WeakShard: Sendable {
        /// The shard, until it is gone.
        weak let actor: ShardActor?

        /// Holds `actor` weakly.
        init(_ actor: ShardActor) {
            self.actor = actor
        }

        /// Every shard of `held`, in order, or nil when any is gone.
        static func alive(_ held: [WeakShard]) -> [ShardActor]? {
            var alive: [ShardActor] = []
            alive.reserveCapacity(held.count)
            for shard in held {
                guard let actor = shard.actor else { return nil }
                alive.append(actor)
            }
            return alive
        }
    }

    /// Whether this shard's log takes entries of several shards in one record (`ShardLog.appendsTogether`).
    nonisolated var appendsTogether: Bool { self.log.appendsTogether }

    /// What became of a single-shard write.
    package enum WriteResult: Sendable {
        case appended(ShardLogPosition, [ResolvedMutation])
        /// The compare-and-set failed against every entry up to `through`.
        case conditionFailed(through: UInt64)
        case needsAllShards
        /// The write names an origin this shard applied already: it was committed through `through` (this leader's
        /// state through there is committed), and nothing was appended.
        case duplicate(through: UInt64)
    }

    /// A write wholly inside this shard; waits while a prepared transaction holds an overlapping path.
    /// - Throws: `ShardNotLeaderError` when this node cannot append to the shard's log now.
    func write(_ write: ShardWrite, conditions: [WriteCondition]) async throws -> WriteResult {
        while true {
            try self.requireLeadership()
            let before = self.restorePoint
            switch self.machine.write(write, conditions: conditions) {
            case .appended(let entry, let applied):
                return try self.appendWrite(entry, applied, before: before)
            case .blocked:
                await self.waitForFinish()
            case .conditionFailed:
                // On a leader the machine runs ahead of commit, and a deposed leader may not know it yet: the
                // refusal stands only once its log confirms both (else the write is routed again).
                let through = self.machine.lastIndex
                guard await self.log.confirmRefusal(shard: self.id, term: self.log.leaderTerm(shard: self.id)) else {
                    throw ShardNotLeaderError(shard: self.id)
                }
                return .conditionFailed(through: through)
            case .needsAllShards:
                return .needsAllShards
            case .duplicate:
                return .duplicate(through: try await self.confirmDuplicate())
            case .unrepresentable(let error):
                throw error
            case .alreadyDecided, .nothingToDo:
                // Unreachable: `ShardStateMachine.write` never answers these (they are transaction commands' answers).
                preconditionFailure("a write in shard \(self.id) answered as a transaction")
            }
        }
    }

    /// Logs a write entry the machine has just applied (`append`) and answers it with the mutations it made.
    private func appendWrite(
        _ entry: ShardEntry, _ applied: ShardApplied, before: ShardStateMachine?
    ) throws(ShardNotLeaderError) -> WriteResult {
        .appended(try self.append(entry, applied, before: before), Self.written(by: applied))
    }

    /// The mutations a write entry made, as applied.
    private static func written(by applied: ShardApplied) -> [ResolvedMutation] {
        guard case .write(let change) = applied.effect else {
            // Unreachable: `ShardStateMachine.applyNext` applies a `.write` entry as a `.write` effect, always.
            preconditionFailure("a write entry applied as \(applied.effect)")
        }
        return change.mutations
    }

    /// A write wholly inside this shard decided now, in the write loop's turn, without waiting: nil when it cannot
    /// be (a prepared transaction holds an overlapping path), and then nothing changed; the write goes the async way
    /// (`write`). Only over a log that orders every shard as one, whose refusals need no confirming, and only on this
    /// shard's executor (nonisolated, checked: the loop calls it outside a job without `assumeIsolated`).
    /// - Throws: `UnrepresentableIncrementError` when an increment would overflow (nothing is appended).
    nonisolated func writeNow(_ write: ShardWrite, conditions: [WriteCondition]) throws -> WriteResult? {
        self.requireExecutor()
        // A programmer's invariant: only `WriteDecider` calls this, which only a single node's `Database` builds.
        precondition(self.log.appendsTogether, "shard \(self.id) decides writes in a turn only over one ordered log")
        switch self.machine.write(write, conditions: conditions) {
        case .appended(let entry, let applied):
            return .appended(self.appendToOneLog(entry, applied), Self.written(by: applied))
        case .blocked:
            return nil
        case .conditionFailed:
            return .conditionFailed(through: self.machine.lastIndex)
        case .needsAllShards:
            return .needsAllShards
        case .duplicate:
            return .duplicate(through: self.machine.lastIndex)
        case .unrepresentable(let error):
            throw error
        case .alreadyDecided, .nothingToDo:
            // Unreachable: `ShardStateMachine.write` never answers these (they are transaction commands' answers).
            preconditionFailure("a write in shard \(self.id) answered as a transaction")
        }
    }

    /// Locks `paths` for a transaction and reads them; waits while another transaction holds an overlapping path.
    /// - Returns: the shard's data at each path, the index the read reflects, and the leader's term, which the
    ///   transaction's prepare or decision here must present (a lock does not outlive its leader's term).
    func lock(_ transaction: TransactionID, namespace: String, paths: [Path]) async throws -> ShardReadLock {
        try self.requireLeadership()
        while !self.machine.lock(transaction, namespace: namespace, paths: paths) {
            await self.waitForFinish()
            try self.requireLeadership()
        }
        self.readLockTimes[transaction] = self.clock.now
        return ShardReadLock(
            nodes: paths.map { self.machine.node(namespace: namespace, at: $0) }, through: self.machine.lastIndex,
            term: self.log.leaderTerm(shard: self.id))
    }

    /// Whether a refusal this shard's machine decided while leading in `term` (a transaction's condition failed on
    /// what it read under its lock) is true; see `ShardLog.confirmRefusal(shard:term:)`.
    func confirmRefusal(term: UInt64) async -> Bool {
        await self.log.confirmRefusal(shard: self.id, term: term)
    }

    /// Releases a transaction's read locks when it gives up before preparing.
    package func unlock(_ transaction: TransactionID) {
        self.machine.unlock(transaction)
        self.readLockTimes.removeValue(forKey: transaction)
        self.resumeBlocked()
    }

    /// Drops read locks taken before `cutoff` whose transaction never prepared or decided here (its coordinator
    /// is gone); the transaction, should it go on, is refused (`ShardReadLockLostError`).
    /// - Returns: how many were dropped.
    @discardableResult
    package func expireReadLocks(takenBefore cutoff: ContinuousClock.Instant) -> Int {
        let expired = self.readLockHolders(takenBefore: cutoff)
        for transaction in expired {
            self.machine.unlock(transaction)
            self.readLockTimes.removeValue(forKey: transaction)
        }
        if !expired.isEmpty { self.resumeBlocked() }
        return expired.count
    }

    /// The transactions whose read locks here were taken before `cutoff` and are still held (they never prepared or
    /// decided here); the times of locks already gone are forgotten on the way.
    package func readLockHolders(takenBefore cutoff: ContinuousClock.Instant) -> [TransactionID] {
        self.readLockTimes = self.readLockTimes.filter { self.machine.readLocks[$0.key] != nil }
        return self.readLockTimes.filter { $0.value < cutoff }.map(\.key)
    }

    /// Releases what only a leader holds once this node no longer leads the shard: its read locks (a transaction
    /// that read under one is refused at its prepare anyway, since its term is over) and the commands parked behind
    /// them or behind a prepared transaction, which then fail with `ShardNotLeaderError` and are routed to the new
    /// leader. Without this, a command parked while leading waits for a wake-up that only this shard's next entry
    /// would bring, and a shard whose new leader takes no more writes never brings one.
    /// - Returns: whether anything was released.
    @discardableResult
    package func releaseIfDeposed() -> Bool {
        guard !self.log.acceptsAppends(shard: self.id), !self.machine.readLocks.isEmpty || !self.blocked.isEmpty
        else { return false }
        for transaction in self.machine.readLocks.keys { self.machine.unlock(transaction) }
        self.readLockTimes.removeAll()
        self.resumeBlocked()
        return true
    }

    /// A transaction that read here under a lock (`readLockTerm`) goes on only if this leader still holds that
    /// lock in the same term: otherwise a write may have changed what it read.
    private func requireReadLock(_ transaction: TransactionID, term: UInt64?) throws(ShardReadLockLostError) {
        guard let term else { return }
        guard self.machine.readLocks[transaction] != nil, self.log.leaderTerm(shard: self.id) == term else {
            throw ShardReadLockLostError(shard: self.id)
        }
    }

    /// Phase one: logs this shard's part; waits while another transaction holds an overlapping path.
    /// - Parameter readLockTerm: the term `lock` returned, when the transaction read here first.
    func prepare(
        _ transaction: TransactionID, _ intent: ShardIntent, readLockTerm: UInt64? = nil
    ) async throws -> ShardPrepareOutcome {
        while true {
            try self.requireLeadership()
            try self.requireReadLock(transaction, term: readLockTerm)
            let before = self.restorePoint
            switch self.machine.prepare(transaction, intent) {
            case .appended(let entry, let applied):
                return .prepared(try self.append(entry, applied, before: before))
            case .blocked:
                await self.waitForFinish()
            case .needsAllShards:
                return .needsAllShards
            case .duplicate:
                return .duplicate(through: try await self.confirmDuplicate())
            case .unrepresentable(let error):
                throw error
            case .conditionFailed, .alreadyDecided, .nothingToDo:
                // Unreachable: `ShardStateMachine.prepare` answers only an obstacle, an overflow, or appends.
                preconditionFailure("prepare of \(transaction) in shard \(self.id) cannot answer that")
            }
        }
    }

    /// The anchor logs the decision with its own part (waiting while another transaction holds an overlapping
    /// path), after every other participant prepared. `spineValues` (the transaction's whole values at the spine
    /// paths it sets) travel with the applied decision to the read view, which then need not join the parts.
    /// A decision for a transaction that already has one (a resolver aborted it) is answered with that one.
    /// - Parameter readLockTerm: the term `lock` returned, when the transaction read here first.
    func decide(
        _ transaction: TransactionID, commit: Bool, part: ShardIntent?, spineValues: [Path: Node] = [:],
        readLockTerm: UInt64? = nil
    ) async throws -> ShardDecideOutcome {
        while true {
            try self.requireLeadership()
            if self.machine.decisions[transaction] == nil { try self.requireReadLock(transaction, term: readLockTerm) }
            let before = self.restorePoint
            switch self.machine.decide(transaction, commit: commit, part: part) {
            case .appended(let entry, var applied):
                if case .finished(let id, let decision, var committed?) = applied.effect {
                    committed.spineValues = spineValues
                    applied.effect = .finished(id, decision: decision, committed: committed)
                }
                let position = try self.append(entry, applied, before: before)
                self.decisionPositions[transaction] = position
                return .logged(position, self.finished(applied))
            case .blocked:
                await self.waitForFinish()
            case .needsAllShards:
                self.machine.unlock(transaction)
                self.resumeBlocked()
                return .needsAllShards
            case .alreadyDecided(let decided):
                self.machine.unlock(transaction)
                self.resumeBlocked()
                return .alreadyDecided(commit: decided, at: self.decisionPositions[transaction])
            case .duplicate:
                self.machine.unlock(transaction)
                self.resumeBlocked()
                return .duplicate(through: try await self.confirmDuplicate())
            case .unrepresentable(let error):
                self.machine.unlock(transaction)
                self.resumeBlocked()
                throw error
            case .conditionFailed, .nothingToDo:
                // Unreachable: `ShardStateMachine.decide` checks no condition and appends when nothing stops it.
                preconditionFailure("the decision of \(transaction) in shard \(self.id) cannot answer that")
            }
        }
    }

    /// What became of a transaction's parts committed at once.
    package enum CommitTogetherOutcome: Sendable {
        /// Every part is applied and logged in one record: where, and each part as its shard resolved it (applied, so
        /// resolved whole: `ShardEdits.edits`), or none when the caller did not keep them (`commitTogetherNow`).
        case committed([ShardLogPosition], [ShardEdits])
        /// A participant cannot commit at once (a prepared transaction holds an overlapping path, it applied the
        /// write before, or the write lands below a spine leaf): nothing changed; two-phase commit takes over.
        case obstructed
    }

    /// Commits every part of `transaction` in this one turn, in one log record: nothing to prepare, decide or
    /// finish, since no other command can run on any participant in between, and the record is durable whole or
    /// not at all. Every participant's actor must share this one's executor, over a log that `appendsTogether`.
    /// `spineValues` travel with the last part, as with a decision.
    /// A job of this shard's executor (the async path's, `LocalShardClient`); the write loop's turn calls
    /// `commitTogetherNow` on the executor's thread instead.
    /// - Parameters:
    ///   - participants: each part's shard (its index in `shards`, the node's shard actors), in the parts' order:
    ///     indexes into the node's one array of actors, so no array of actors is made per write.
    ///   - parts: each part as the entry its shard logs (`ShardEntry.commit` of `transaction`), made once by the
    ///     caller: the machines apply and the log encodes these very entries, so no part is copied into one here.
    ///     Two arrays rather than one of (shard, part) pairs, whose every read went through the runtime's generic
    ///     copy of a tuple.
    /// - Throws: `ShardNotLeaderError`, or `UnrepresentableIncrementError` when a part's increment would overflow
    ///   (nothing is appended anywhere).
    func commitTogether(
        _ transaction: TransactionID, participants: [Int], of shards: [ShardActor], parts: consuming [ShardEntry],
        spineValues: [Path: Node]
    ) throws -> CommitTogetherOutcome {
        var parts = parts
        return try self.commitTogetherNow(
            transaction, participants: participants, of: shards, parts: &parts, spineValues: spineValues,
            keepingResolved: true)
    }

    /// `commitTogether` from this shard's executor outside a job (the write loop's turn): nonisolated and checked
    /// (`requireExecutor`), so that neither this shard nor any participant is reached through `assumeIsolated`,
    /// which allocated and freed two closure contexts per call. `parts` are the caller's still, as they were, when the
    /// write is obstructed or refused (the write loop rebuilds an obstructed write from them); committed, they go to
    /// the log and the caller is left none. The committed outcome lists the parts as resolved only when
    /// `keepingResolved` (else none: each applied part's change holds them anyway, and an answer that only says the
    /// write committed reads nothing of them).
    nonisolated func commitTogetherNow(
        _ transaction: TransactionID, participants: [Int], of shards: [ShardActor], parts: inout [ShardEntry],
        spineValues: [Path: Node], keepingResolved: Bool
    ) throws -> CommitTogetherOutcome {
        self.requireExecutor()
        // A programmer's invariant: only `WriteDecider` calls this, over a single node's one log, with a shard per part.
        precondition(self.log.appendsTogether, "shard \(self.id)'s log cannot append several shards together")
        precondition(participants.count == parts.count, "a transaction committed at once names a shard per part")
        // Every part is applied in this one turn, so each shard's data now is what its part's increments add to: an
        // increment no number can hold refuses the whole write before any part is appended, but only once no part is
        // obstructed (an obstructed write goes the two-phase way whatever its increments). Each part is checked and
        // resolved in one step on its shard, once, and applied as resolved: its edits wait between the two steps on
        // the stack (`resolvedParts`, its first `resolvedCount` initialized), where an array of them was allocated
        // for every write; the outcome lists them only when the caller keeps them.
        return try withUnsafeTemporaryAllocation(of: ShardEdits.self, capacity: parts.count) {
            resolvedParts throws -> CommitTogetherOutcome in
            var resolvedCount = 0
            defer { _ = UnsafeMutableBufferPointer(rebasing: resolvedParts[..<resolvedCount]).deinitialize() }
            var overflow: UnrepresentableIncrementError?
            // Each step reads its part as a value of its own, moved out of the array's buffer and back after the step
            // (`withPart`): read where the buffer holds it, each part was copied out whole around every call into the
            // machine (its write's mutations, origin and plan retained, then released), since the call could have
            // changed that memory.
            let applied = try parts.withUnsafeMutableBufferPointer { entries throws -> [ShardApplied]? in
                // Each participant's machine is reached where the shard stores it (`resolvingToCommit(_:_:on:)`, and
                // `commit` as a mutation of it), not through `withMachine`, whose closure copied each part it read.
                for index in entries.indices {
                    let resolving = try Self.withShard(participants[index], of: shards) { shard in
                        shard.requireExecutor()
                        try shard.requireLeadership()
                        return Self.withPart(at: index, of: entries) {
                            Self.resolvingToCommit(transaction, $0, on: &shard.machine)
                        }
                    }
                    switch resolving {
                    case nil: return nil
                    case .success(let mutations)?:
                        resolvedParts.initializeElement(at: resolvedCount, to: mutations)
                        resolvedCount += 1
                    case .failure(let error)?: overflow = overflow ?? error
                    }
                }
                if let overflow { throw overflow }
                // No part overflowed or was obstructed: every part is resolved, part `index` at `index`.
                var applied: [ShardApplied] = []
                applied.reserveCapacity(entries.count)
                for index in entries.indices {
                    applied.append(
                        Self.withShard(participants[index], of: shards) { shard in
                            Self.withPart(at: index, of: entries) {
                                shard.machine.commit($0, resolved: &resolvedParts[index])
                            }
                        })
                }
                return applied
            }
            guard var applied else { return .obstructed }
            // The transaction's spine values travel with the last part (none for a write below the spine), set where
            // the array holds it (a part held in a variable of its own was copied into the array).
            if !spineValues.isEmpty, !applied.isEmpty { Self.attach(spineValues, to: &applied[applied.count - 1]) }
            // Each part's change holds its mutations as resolved above and by the apply, as `resolvedParts` does
            // (`ShardStateMachine.applyNext(_:resolved:)`); the parts are moved on to the log, which writes them
            // without copying (the caller is left none).
            var logged: [ShardEntry] = []
            swap(&logged, &parts)
            let positions = self.log.appendTogether(consume logged, applied: consume applied)
            guard keepingResolved else { return .committed(positions, []) }
            let kept = (0..<resolvedCount).map { resolvedParts.moveElement(from: $0) }
            resolvedCount = 0
            return .committed(positions, kept)
        }
    }

    /// `body` on part `index` of `entries` as a value of its own: moved out of the buffer, then back where it was
    /// (`body` cannot throw, so the buffer always holds it again). Borrowed as a local value, the part reaches the
    /// machine without a copy.
    private static func withPart<Result>(
        at index: Int, of entries: UnsafeMutableBufferPointer<ShardEntry>, _ body: (borrowing ShardEntry) -> Result
    ) -> Result {
        let part = entries.moveElement(from: index)
        let result = body(part)
        entries.initializeElement(at: index, to: consume part)
        return result
    }

    /// `body` on shard `index` of `shards`, not retained: `shards` (borrowed for the whole call) keeps it. Read into
    /// a local, each participant was retained and released around its step, twice a part.
    private static func withShard<Result>(
        _ index: Int, of shards: [ShardActor], _ body: (ShardActor) throws -> Result
    ) rethrows -> Result {
        try Unmanaged.passUnretained(shards[index])._withUnsafeGuaranteedRef(body)
    }

    /// `ShardStateMachine.resolvingToCommit(_:_:)` on `machine` where it is stored: through `inout` the query reads
    /// the machine in place, where read as a value (`shard.machine.resolvingToCommit`) the whole machine was copied
    /// first (every dictionary in it retained, then released).
    private static func resolvingToCommit(
        _ transaction: TransactionID, _ part: borrowing ShardEntry, on machine: inout ShardStateMachine
    ) -> Result<ShardEdits, UnrepresentableIncrementError>? {
        machine.resolvingToCommit(transaction, part)
    }

    /// Sets the spine values of a committed part's transaction (`ShardTransactionPart.spineValues`); leaves any other
    /// effect as it is.
    private static func attach(_ spineValues: [Path: Node], to part: inout ShardApplied) {
        guard case .finished(let id, let decision, var committed?) = part.effect else { return }
        committed.spineValues = spineValues
        part.effect = .finished(id, decision: decision, committed: committed)
    }

    /// Runs `body` on the machine where it is stored: a query made on `self.machine` read as a value copies the
    /// whole machine first (every dictionary in it retained, then released), one made through `inout` does not.
    /// Nonisolated, checked (`requireExecutor`): the write loop's turn reaches each shard's machine this way, from the
    /// shards' executor outside a job, where `assumeIsolated` allocated two closure contexts per call.
    nonisolated func withMachine<Result>(_ body: (inout ShardStateMachine) throws -> Result) rethrows -> Result {
        self.requireExecutor()
        return try body(&self.machine)
    }

    /// The shard's tree of `namespace` as it stands (empty when it holds none), read where the machine keeps it:
    /// the write loop's turn end takes each subtree its entries touched from here. Nonisolated, checked.
    nonisolated func tree(_ namespace: String) -> Node {
        self.requireExecutor()
        return self.machine.trees[namespace] ?? .empty
    }

    /// Traps unless the caller runs on this shard's executor (in one of its jobs, or on the write loop's thread in a
    /// turn): the one place the nonisolated methods that touch `machine` ask.
    private nonisolated func requireExecutor() {
        // A programmer's invariant, as `assumeIsolated`'s: shard state is touched only where its commands run.
        if let loop = self.loop {
            precondition(loop.isCurrent, "shard \(self.id)'s state was touched off the hearth-loop thread")
        } else {
            self.preconditionIsolated("shard \(self.id)'s state was touched off its executor")
        }
    }

    /// Logs an entry the machine has just applied, on a log that orders every shard as one (`appendsTogether`),
    /// which never refuses an entry, so the machine needs no restore point.
    private nonisolated func appendToOneLog(_ entry: ShardEntry, _ applied: ShardApplied) -> ShardLogPosition {
        do {
            return try self.log.append(entry, applied: applied)
        } catch {
            // A programmer's invariant: the logs that append several shards together (one node's) never refuse.
            preconditionFailure("shard \(self.id)'s log orders every shard as one, yet refused an entry: \(error)")
        }
    }

    /// A participant logs the decision it learned, finishing its part.
    /// - Returns: where to wait for it, and this shard's resolved part when it committed; nil when the part was
    ///   finished already (by a resolver, or an earlier attempt).
    func finish(_ transaction: TransactionID, commit: Bool) throws -> (ShardLogPosition, [ResolvedMutation])? {
        try self.requireLeadership()
        self.readLockTimes.removeValue(forKey: transaction)
        let before = self.restorePoint
        switch self.machine.finish(transaction, commit: commit) {
        case .appended(let entry, let applied):
            return (try self.append(entry, applied, before: before), self.finished(applied))
        case .nothingToDo:
            self.resumeBlocked()
            return nil
        default:
            // Unreachable: `ShardStateMachine.finish` answers only these two.
            preconditionFailure("finishing \(transaction) in shard \(self.id) can only append or do nothing")
        }
    }

    /// The anchor logs that it may forget these decisions (every part of each finished).
    /// - Returns: where to wait for it; nil when it held none of them.
    func forget(_ transactions: [TransactionID]) throws -> ShardLogPosition? {
        try self.requireLeadership()
        let before = self.restorePoint
        switch self.machine.forget(transactions) {
        case .appended(let entry, let applied):
            let position = try self.append(entry, applied, before: before)
            for transaction in transactions { self.decisionPositions.removeValue(forKey: transaction) }
            return position
        case .nothingToDo: return nil
        default:
            // Unreachable: `ShardStateMachine.forget` answers only these two.
            preconditionFailure("forgetting decisions in shard \(self.id) can only append or do nothing")
        }
    }

    /// A committed entry this node did not propose (it follows the shard's leader): applied to the state machine
    /// exactly as the leader applied it.
    /// - Throws: `ShardEntryGapError` when `index` does not follow the machine's last entry; nothing is applied.
    package func applyCommitted(_ entry: ShardEntry, at index: UInt64) throws(ShardEntryGapError) -> ShardApplied {
        let applied = try self.machine.apply(entry, at: index)
        if case .forget(let transactions) = entry {
            for transaction in transactions { self.decisionPositions.removeValue(forKey: transaction) }
        }
        self.resumeBlocked()
        return applied
    }

    /// Replaces the state machine with one rebuilt from the shard's committed state (this node led the shard and
    /// applied entries that were never committed): `base`, a snapshot's machine (an empty one when nil), then the
    /// committed entries after it.
    /// - Throws: `ShardEntryGapError` when an entry's index does not follow the one before it; the machine is kept
    ///   as it was.
    package func rebuild(
        from base: ShardStateMachine?, applying committed: [(ShardEntry, UInt64)]
    ) throws(ShardEntryGapError) {
        var machine = base ?? ShardStateMachine(shard: self.id, spineDepth: self.machine.spineDepth)
        for (entry, index) in committed { _ = try machine.apply(entry, at: index) }
        self.machine = machine
        self.decisionPositions.removeAll()
        self.readLockTimes.removeAll()
        self.resumeBlocked()
    }

    /// Replaces the state machine with one restored from a snapshot of the shard's committed state (this node fell
    /// too far behind its leader for the log).
    package func restore(_ machine: ShardStateMachine) {
        // A programmer's invariant: the applier hands a machine to its own shard's actor, and a peer's snapshot is
        // decoded for the shard it was sent for (`ShardSnapshot.decode` refuses another shard's).
        precondition(machine.shard == self.id, "shard \(self.id) was given the snapshot of shard \(machine.shard)")
        self.machine = machine
        self.resumeBlocked()
    }

    /// The machine as it is, kept before an apply when the log may refuse the entry (`ShardLog.mayRefuseAppends`);
    /// nil for a log that never refuses, so its applies edit the machine in place.
    private var restorePoint: ShardStateMachine? {
        self.log.mayRefuseAppends ? self.machine : nil
    }

    /// Logs an entry the machine has just applied. When the log refuses it (leadership moved, or a transfer began,
    /// since `requireLeadership`), the machine goes back to `before`, so it never holds an entry its log does not (the
    /// next entry would take that entry's index), and the command fails over to the shard's leader.
    private func append(
        _ entry: ShardEntry, _ applied: ShardApplied, before: ShardStateMachine?
    ) throws(ShardNotLeaderError) -> ShardLogPosition {
        do {
            return try self.log.append(entry, applied: applied)
        } catch {
            guard let before else {
                // A programmer's invariant: a log whose `append` can throw says so (`ShardLog.mayRefuseAppends`).
                preconditionFailure("shard \(self.id)'s log refused an entry but says it never refuses")
            }
            self.machine = before
            self.resumeBlocked()
            throw error
        }
    }

    /// A write the machine knows as applied was applied by an entry at or below its `lastIndex`, which may not be
    /// committed yet on a leader (or a deposed one): answered only once the log confirms the machine's state through
    /// there is committed, exactly as a refusal is.
    /// - Returns: the index through which the first write is committed.
    /// - Throws: `ShardNotLeaderError` when that cannot be confirmed (the command is routed again).
    private func confirmDuplicate() async throws(ShardNotLeaderError) -> UInt64 {
        let through = self.machine.lastIndex
        guard await self.log.confirmRefusal(shard: self.id, term: self.log.leaderTerm(shard: self.id)) else {
            throw ShardNotLeaderError(shard: self.id)
        }
        return through
    }

    private nonisolated func requireLeadership() throws(ShardNotLeaderError) {
        guard self.log.acceptsAppends(shard: self.id) else { throw ShardNotLeaderError(shard: self.id) }
    }

    /// The transactions prepared here and not yet finished (recovery finishes them).
    package var intents: [TransactionID: ShardIntent] { self.machine.intents }

    /// The decisions this shard anchors and still holds.
    var decisions: [TransactionID: Bool] { self.machine.decisions }

    /// How many commands are parked here, waiting for a transaction to finish or a lock to go.
    var parkedCount: Int { self.blocked.count }

    /// The shard's state machine as it stands (tests compare it with the read view and with a replay of the log).
    var state: ShardStateMachine { self.machine }

    /// Wakes parked commands after a transaction finished here; returns its resolved part.
    private func finished(_ applied: ShardApplied) -> [ResolvedMutation] {
        self.resumeBlocked()
        if case .finished(_, _, let part?) = applied.effect { return part.change.mutations }
        return []
    }

    private func waitForFinish() async {
        await withCheckedContinuation { self.blocked.append($0) }
    }

    private func resumeBlocked() {
        let resumed = self.blocked
        self.blocked = []
        for continuation in resumed { continuation.resume() }
    }
}
