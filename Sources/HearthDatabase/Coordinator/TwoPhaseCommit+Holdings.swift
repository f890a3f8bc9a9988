/// The failure bookkeeping of one multi-shard write: which participants hold its read locks and prepared parts, the
/// leader's term each lock was taken in, and what is known of its decision. The coordinator's shell reports each
/// step's outcome here and asks `release()` what to give back when a step fails, so the rules for a failure (never
/// abort parts whose decision may be logged; a decided transaction releases nothing) live in the value.
extension TwoPhaseCommit {
    /// What is known of the transaction's decision at the anchor.
    enum Decision: Sendable, Equatable {
        /// Not logged: a failure aborts the prepared parts.
        case none
        /// A decide call failed without saying whether the anchor logged the commit (its answer was lost), or the
        /// anchor already holds a commit: the prepared parts must not be aborted here, or a committed decision could
        /// meet aborted parts; the shards' resolvers finish them with the anchor's decision.
        case uncertain
        /// Logged: the transaction commits; nothing is released on a later failure.
        case logged
    }

    /// What a transaction holds in its participants, as reported by the shell.
    struct Holdings: Sendable, Equatable {
        /// Shards asked for this transaction's read locks (a lock whose answer was lost may be held).
        var locked: Set<Int> = []
        /// The leader's term at each shard read under a lock: its prepare or decision there presents it.
        var lockTerms: [Int: UInt64] = [:]
        /// Shards whose part is prepared, in the order they were prepared.
        var prepared: [Int] = []
        var decision = Decision.none
        /// Whether the anchor may forget the decision once every part is committed: not when a resolver finished a
        /// part first (its finish may not be committed yet, and its own bookkeeping forgets the decision).
        var isForgettable = true
    }

    /// What a failed transaction gives back: the parts to abort, then the read locks and parts to unlock.
    struct Release: Sendable, Equatable {
        let abort: [Int]
        let unlock: Set<Int>
    }

    /// The shell is about to ask `shard` for the read locks: from now on a failure unlocks it.
    mutating func onLockRequested(_ shard: Int) {
        self.holdings.locked.insert(shard)
    }

    /// `shard`'s leader took the read locks in `term`.
    mutating func onLocked(_ shard: Int, term: UInt64) {
        self.holdings.lockTerms[shard] = term
    }

    /// The term `shard`'s read locks were taken in, which its prepare, decision or refusal presents.
    func readLockTerm(_ shard: Int) -> UInt64? {
        self.holdings.lockTerms[shard]
    }

    /// `shard` prepared its part.
    mutating func onPartPrepared(_ shard: Int) {
        self.holdings.prepared.append(shard)
    }

    /// The decide call failed; `certainlyNotCarriedOut` says whether the anchor certainly logged nothing.
    mutating func onDecisionFailed(certainlyNotCarriedOut: Bool) {
        if !certainlyNotCarriedOut { self.holdings.decision = .uncertain }
    }

    /// The anchor already held a decision (a resolver's, which found the parts prepared for too long).
    mutating func onDecisionAlreadyThere(commit: Bool) {
        if commit { self.holdings.decision = .uncertain }
    }

    /// A resolver finished `shard`'s part before this coordinator did.
    mutating func onFinishedByResolver() {
        self.holdings.isForgettable = false
    }

    /// Whether the anchor may forget the decision once every part is committed.
    var isForgettable: Bool { self.holdings.isForgettable }

    /// What to give back after a step failed: nothing once the decision is logged; else the prepared parts to abort
    /// (none while the decision is uncertain) and every shard asked for a lock or holding a part, to unlock.
    func release() -> Release? {
        let holdings = self.holdings
        switch holdings.decision {
        case .logged: return nil
        case .uncertain: return Release(abort: [], unlock: holdings.locked)
        case .none:
            return Release(abort: holdings.prepared, unlock: holdings.locked.union(holdings.prepared))
        }
    }
}
