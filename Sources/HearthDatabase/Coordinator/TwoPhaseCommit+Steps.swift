import HearthCore

/// The transaction as the coordinator's shell drives it: one call at a time. `begin()` gives the first `Step`; the
/// shell performs it (a shard call, a wait on the log) and reports what came back with `next(after:)`, which gives
/// the next, until `Step.end`. Every answer and failure goes through here, so the failure rules live in the value
/// and the shell only does I/O:
/// - a read lock whose answer was lost may be held, and a part whose prepare's answer was lost may be prepared:
///   a failure before the decision unlocks and aborts them (`release()`);
/// - a decide call whose answer was lost leaves the decision uncertain: the prepared parts are never aborted then
///   (the resolvers finish them with whatever the anchor holds), and the failure is reported as the call's own
///   error, which says the write may or may not have been applied;
/// - once the decision is logged nothing is released, and a participant that cannot take its finish fails the write
///   with `TransactionUnfinishedError` (committed; the resolver finishes that part), never with a plain failure;
/// - a condition refused on data a deposed leader may have applied stands only once every participant confirms it;
///   else the write runs again, after a pause.
extension TwoPhaseCommit {
    /// One thing the shell does for the transaction, then reports with `next(after:)`.
    enum Step: Sendable {
        /// `ShardClient.commitTogether` (with `spineValues`): answer `.committedTogether`.
        case commitTogether(anchor: Int, parts: [(shard: Int, intent: ShardIntent)])
        /// `ShardClient.lock` of the read paths: answer `.locked`.
        case lock(shard: Int, paths: [Path])
        /// `ShardClient.confirmRefusal`: answer `.refusalConfirmed` (a failed call confirms nothing).
        case confirmRefusal(shard: Int, term: UInt64)
        /// `ShardClient.prepare`: answer `.prepared`.
        case prepare(shard: Int, ShardIntent, readLockTerm: UInt64?)
        /// `ShardLog.waitUntilOrdered` for each position: answer `.ordered`.
        case waitUntilOrdered([ShardLogPosition])
        /// `ShardClient.decide` (commit, with `spineValues`): answer `.decided`.
        case decide(anchor: Int, part: ShardIntent, readLockTerm: UInt64?)
        /// `ShardClient.finish` with `commit`: answer `.finished`.
        case finish(shard: Int, commit: Bool)
        /// `ShardClient.unlock`: answer `.released`.
        case unlock(shard: Int)
        /// `ShardClient.pauseBeforeRerun`: answer `.paused`.
        case pauseBeforeRerun(shard: Int, reruns: Int)
        /// The transaction is over; nothing more is asked.
        case end(End)
    }

    /// How a transaction ended.
    enum End: Sendable {
        /// Logged at these positions, each entry's resolved mutations; the write is answered once they commit.
        /// `forgetAt`: the anchor that may then forget the decision (nil when it has none to forget, or a resolver
        /// finished a part first).
        case committed([ShardLogPosition], [[ResolvedMutation]], forgetAt: Int?)
        /// A condition failed, confirmed by every participant, against the data as of these shard indexes.
        case stale(through: [Int: UInt64])
        /// The write was applied before (a shard remembers its origin), committed through these shard indexes.
        case duplicate(through: [Int: UInt64])
        /// Run the write again as a new transaction: over every shard when `escalated`, after `reruns` reruns.
        case rerun(escalated: Bool, reruns: Int)
        /// The write failed with `error`, having given back what it held.
        case failed(any Error)
    }

    /// What a step's call answered.
    enum Event: Sendable {
        /// The anchor's answer to `commitTogether`.
        case committedTogether(ShardActor.CommitTogetherOutcome)
        /// What the shard read under the lock.
        case locked(ShardReadLock)
        /// Whether the shard's leader confirmed the refusal.
        case refusalConfirmed(Bool)
        /// What the participant did with its part.
        case prepared(ShardPrepareOutcome)
        /// Every position waited on is ordered (committed in its term).
        case ordered
        /// What the anchor did with the decision.
        case decided(ShardDecideOutcome)
        /// Where the finish was logged and the part it committed; nil when a resolver finished the part first.
        case finished((ShardLogPosition, [ResolvedMutation])?)
        /// The unlock was sent (best effort: it never fails).
        case released
        /// The pause before a rerun is over.
        case paused
        /// The call threw `error`; `certainlyNotCarriedOut` when the shard (or this node) certainly did nothing
        /// with it (`Coordinator.certainlyNotCarriedOut`), false when its answer was lost and it may have.
        case failed(any Error, certainlyNotCarriedOut: Bool)
    }

    /// Where the steps stand: what the step in flight is, what follows it, and what the answers so far carried.
    struct Progress: Sendable {
        /// Which part of the protocol the queued steps belong to, which says what follows once they are answered.
        enum Stage: Sendable {
            case together, locking, confirming, preparing, orderingPrepares, deciding, orderingDecision, finishing
            /// Giving back what was held (or pausing), then ending as given.
            case ending(End)
            case over
        }

        /// Where the steps stand.
        var stage = Stage.together
        /// The step the shell is performing.
        var current: Step?
        /// The steps of the stage still to give, in order.
        var queue: [Step] = []
        /// What the locked reads returned, by shard, and the shard index each reflects.
        var nodes: [Int: [Node]] = [:]
        /// The shard index each locked read reflects (what a refusal was checked against).
        var through: [Int: UInt64] = [:]
        /// The first participant that did not confirm the refusal.
        var unconfirmed: Int?
        /// Where the prepares were logged (each must be ordered before the decision).
        var preparedPositions: [ShardLogPosition] = []
        /// The decision's and the finishes' positions.
        var positions: [ShardLogPosition] = []
        /// What each of those entries committed, as its shard resolved it.
        var resolved: [[ResolvedMutation]] = []
    }

    /// The first step.
    mutating func begin() -> Step {
        self.expand(self.start())
    }

    /// The step after `event`, the answer to the step given last.
    mutating func next(after event: Event) -> Step {
        guard let current = self.progress.current else {
            preconditionFailure("transaction \(self.transaction) answered after its end")
        }
        self.progress.current = nil
        if case .failed(let error, let certainlyNotCarriedOut) = event {
            return self.failed(current, error, certainlyNotCarriedOut: certainlyNotCarriedOut)
        }
        switch (current, event) {
        case (.commitTogether, .committedTogether(.committed(let logged, let resolved))):
            self.onCommittedTogether()
            return self.end(.committed(logged, resolved.map(\.edits), forgetAt: nil))
        case (.commitTogether, .committedTogether(.obstructed)):
            return self.expand(self.onObstructed())
        case (.lock(let shard, _), .locked(let read)):
            self.holdings.lockTerms[shard] = read.term
            (self.progress.nodes[shard], self.progress.through[shard]) = (read.nodes, read.through)
            return self.advance()
        case (.confirmRefusal(let shard, _), .refusalConfirmed(let isConfirmed)):
            if !isConfirmed { self.refusalUnconfirmed(shard) }
            return self.advance()
        case (.prepare(let shard, _, _), .prepared(let outcome)):
            return self.prepared(shard, outcome)
        case (.waitUntilOrdered, .ordered):
            return self.ordered()
        case (.decide(let anchor, _, _), .decided(let outcome)):
            return self.decided(anchor, outcome)
        case (.finish, .finished(let finished)):
            if let (position, mutations) = finished {
                self.progress.positions.append(position)
                self.progress.resolved.append(mutations)
            } else {
                // A resolver finished this part first; its finish may not be committed yet, so the anchor keeps the
                // decision (the resolver's bookkeeping, not ours, may forget it).
                self.holdings.isForgettable = false
            }
            return self.advance()
        case (.unlock, .released), (.pauseBeforeRerun, .paused):
            return self.advance()
        default:
            preconditionFailure("transaction \(self.transaction): \(event) does not answer \(current)")
        }
    }

    /// Gives the next queued step of the stage, or, once the stage's steps are all answered, what follows them.
    private mutating func advance() -> Step {
        guard self.progress.queue.isEmpty else { return self.give(self.progress.queue.removeFirst()) }
        switch self.progress.stage {
        case .locking: return self.expand(self.onRead(self.progress.nodes, through: self.progress.through))
        case .confirming: return self.refusalsChecked()
        case .preparing:
            guard !self.progress.preparedPositions.isEmpty else { return self.expand(self.onPrepared()) }
            self.progress.stage = .orderingPrepares
            return self.give(.waitUntilOrdered(self.progress.preparedPositions))
        case .finishing: return self.finishedAll()
        case .ending(let end): return self.give(.end(end))
        case .together, .orderingPrepares, .deciding, .orderingDecision, .over:
            preconditionFailure("transaction \(self.transaction) has no steps queued in \(self.progress.stage)")
        }
    }

    /// Hands `step` to the shell, noting what asking for it may leave held.
    private mutating func give(_ step: Step) -> Step {
        switch step {
        case .lock(let shard, _): self.holdings.locked.insert(shard)
        case .end: self.progress.stage = .over
        default: break
        }
        self.progress.current = step
        return step
    }

    /// Turns the protocol's next directive (each phase gives exactly one) into steps.
    private mutating func expand(_ directives: [Directive]) -> Step {
        guard directives.count == 1, let directive = directives.first else {
            preconditionFailure("transaction \(self.transaction) was given \(directives.count) directives at once")
        }
        switch directive {
        case .commitTogether(let anchor, let parts):
            self.progress.stage = .together
            return self.give(.commitTogether(anchor: anchor, parts: parts))
        case .lockAndRead(let participants, let paths):
            self.progress.stage = .locking
            self.progress.queue = participants.map { .lock(shard: $0, paths: paths) }
        case .unrepresentable(_, let error):
            return self.release(then: .failed(error))
        case .conditionFailed(let participants, let through):
            self.progress.stage = .confirming
            self.progress.through = through
            self.progress.queue = participants.map {
                .confirmRefusal(shard: $0, term: self.readLockTerm($0) ?? 0)
            }
        case .prepare(let parts, _):
            self.progress.stage = .preparing
            self.progress.queue = parts.map {
                .prepare(shard: $0.shard, $0.intent, readLockTerm: self.readLockTerm($0.shard))
            }
        case .decide(let anchor, let part):
            self.progress.stage = .deciding
            return self.give(.decide(anchor: anchor, part: part, readLockTerm: self.readLockTerm(anchor)))
        case .finish(let participants, let commit):
            self.progress.stage = .finishing
            self.progress.queue = participants.map { .finish(shard: $0, commit: commit) }
        }
        return self.advance()
    }

    /// A participant could not confirm the refusal: the rest need not be asked.
    private mutating func refusalUnconfirmed(_ shard: Int) {
        self.progress.unconfirmed = shard
        self.progress.queue.removeAll()
    }

    /// Every participant asked has answered on the refusal: release the read locks, then answer stale, or pause and
    /// run again when one could not confirm it.
    private mutating func refusalsChecked() -> Step {
        let unlocks = self.plan.participants.map { Step.unlock(shard: $0) }
        self.holdings.locked.removeAll()
        guard let unconfirmed = self.progress.unconfirmed else {
            return self.end(.stale(through: self.progress.through), after: unlocks)
        }
        let reruns = self.reruns + 1
        return self.end(
            .rerun(escalated: self.escalated, reruns: reruns),
            after: unlocks + [.pauseBeforeRerun(shard: unconfirmed, reruns: reruns)])
    }

    /// `shard` answered its prepare: the next part, or the wait for every prepare to be ordered; a duplicate gives
    /// back what is held, and a part below a spine leaf reruns over every shard.
    private mutating func prepared(_ shard: Int, _ outcome: ShardPrepareOutcome) -> Step {
        switch outcome {
        case .prepared(let position):
            self.holdings.prepared.append(shard)
            self.progress.preparedPositions.append(position)
            return self.advance()
        case .needsAllShards:
            return self.rerunOverEveryShard()
        case .duplicate(let through):
            self.progress.queue.removeAll()
            return self.release(then: .duplicate(through: [shard: through]))
        }
    }

    /// The positions waited on are ordered: after the prepares, decide; after the decision, finish.
    private mutating func ordered() -> Step {
        switch self.progress.stage {
        case .orderingPrepares: return self.expand(self.onPrepared())
        case .orderingDecision: return self.expand(self.onDecided())
        default: preconditionFailure("transaction \(self.transaction) waited on its log in \(self.progress.stage)")
        }
    }

    /// The anchor answered the decision: once it is logged, wait for it to be ordered; else give back what is held
    /// (all of it but the prepared parts when a commit may be there) and end as the answer says.
    private mutating func decided(_ anchor: Int, _ outcome: ShardDecideOutcome) -> Step {
        switch outcome {
        case .logged(let position, let part):
            self.holdings.decision = .logged
            self.progress.positions.append(position)
            self.progress.resolved.append(part)
            // A finish must never be committed before the decision it reports (recovery would apply a part whose
            // decision it cannot find): immediate on one log, a commit round with a log per shard.
            self.progress.stage = .orderingDecision
            return self.give(.waitUntilOrdered([position]))
        case .needsAllShards:
            self.holdings.prepared = self.plan.participants.filter { $0 != anchor }
            return self.rerunOverEveryShard()
        case .duplicate(let through):
            return self.release(then: .duplicate(through: [anchor: through]))
        case .alreadyDecided(let commit, _):
            // Only this coordinator commits; a decision already there is a resolver's abort, which found this
            // transaction's parts prepared for too long.
            if commit { self.holdings.decision = .uncertain }
            return self.release(then: .failed(TransactionAbortedError(commit: commit)))
        }
    }

    /// Every participant finished its part: the write is done.
    private mutating func finishedAll() -> Step {
        let forgetAt = self.isForgettable ? self.plan.anchor : nil
        return self.end(.committed(self.progress.positions, self.progress.resolved, forgetAt: forgetAt))
    }

    /// A part landed below a spine leaf: abort what was prepared, release every participant's read locks, and run
    /// the write again as a transaction over every shard that first clears the leaf.
    private mutating func rerunOverEveryShard() -> Step {
        precondition(
            !self.escalated, "transaction \(self.transaction) still lands below a spine leaf after clearing it")
        self.progress.queue.removeAll()
        self.holdings.locked.formUnion(self.plan.participants)
        return self.release(then: .rerun(escalated: true, reruns: 0))
    }

    /// A call failed: give back what `release()` says, then end with the error. A finish that fails after the
    /// decision is logged leaves the write committed and that part unfinished, which the error says.
    private mutating func failed(_ step: Step, _ error: any Error, certainlyNotCarriedOut: Bool) -> Step {
        switch step {
        case .confirmRefusal(let shard, _):
            self.refusalUnconfirmed(shard)
            return self.refusalsChecked()
        case .unlock:
            return self.advance()
        case .finish(_, commit: false):
            // Aborting before a rerun failed: the part stays prepared until a resolver aborts it; the write fails
            // with the error rather than run into its own part, once the rest is given back.
            if case .ending(.rerun) = self.progress.stage { self.progress.stage = .ending(.failed(error)) }
            return self.advance()
        case .finish(let shard, commit: true):
            self.progress.queue.removeAll()
            return self.end(
                .failed(TransactionUnfinishedError(anchor: self.plan.anchor, shard: shard, cause: "\(error)")))
        case .prepare(let shard, _, _) where !certainlyNotCarriedOut:
            self.holdings.maybePrepared.insert(shard)
        case .decide where !certainlyNotCarriedOut:
            self.holdings.decision = .uncertain
        case .pauseBeforeRerun:
            return self.end(.failed(error))
        default:
            break
        }
        self.progress.queue.removeAll()
        return self.release(then: .failed(error))
    }

    /// Gives back what the transaction holds (`release()`), then ends with `end`.
    private mutating func release(then end: End) -> Step {
        guard let release = self.release() else { return self.end(end) }
        self.holdings.locked.removeAll()
        self.holdings.prepared.removeAll()
        self.holdings.maybePrepared.removeAll()
        let steps =
            release.abort.map { Step.finish(shard: $0, commit: false) }
            + release.unlock.sorted().map { Step.unlock(shard: $0) }
        return self.end(end, after: steps)
    }

    /// Ends with `end` once `steps` (giving back, pausing) are answered.
    private mutating func end(_ end: End, after steps: [Step] = []) -> Step {
        self.progress.stage = .ending(end)
        self.progress.queue = steps
        return self.advance()
    }
}

/// A transaction's decision to commit is logged, but a participant did not confirm it finished its part: the write
/// is committed and will be applied whole (the shard's resolver finishes the part with the anchor's decision), but
/// this node cannot tell when, so it cannot answer that the write is visible.
struct TransactionUnfinishedError: Error, Sendable, CustomStringConvertible {
    var anchor: Int
    var shard: Int
    /// What the finish call failed with.
    var cause: String

    var description: String {
        "The write was committed (its decision is logged in shard \(self.anchor)), but shard \(self.shard) did not "
            + "confirm applying its part (\(self.cause)); the shard finishes it on its own shortly. Do not send the "
            + "write again: read the data to see it."
    }
}
