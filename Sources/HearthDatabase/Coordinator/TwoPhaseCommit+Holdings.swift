/// The failure bookkeeping of one multi-shard write: which participants hold its read locks and prepared parts (or
/// may hold one, when a prepare's answer was lost), the leader's term each lock was taken in, what is known of its
/// decision, and what the logged entries were. `TwoPhaseCommit+Steps` updates it from each call's answer and asks
/// `release()` what to give back when a step fails, so the rules for a failure (never abort parts whose decision may
/// be logged; a decided transaction releases nothing) live in the value.
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

    /// What a transaction holds in its participants, as the answers reported it.
    struct Holdings: Sendable, Equatable {
        /// Shards asked for this transaction's read locks (a lock whose answer was lost may be held).
        var locked: Set<Int> = []
        /// The leader's term at each shard read under a lock: its prepare or decision there presents it.
        var lockTerms: [Int: UInt64] = [:]
        /// Shards whose part is prepared, in the order they were prepared.
        var prepared: [Int] = []
        /// Shards asked to prepare whose answer was lost: the part may be prepared there.
        var maybePrepared: Set<Int> = []
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

    /// The term `shard`'s read locks were taken in, which its prepare, decision or refusal presents.
    func readLockTerm(_ shard: Int) -> UInt64? {
        self.holdings.lockTerms[shard]
    }

    /// Whether the anchor may forget the decision once every part is committed.
    var isForgettable: Bool { self.holdings.isForgettable }

    /// What to give back after a step failed: nothing once the decision is logged; else the parts that are (or may
    /// be) prepared, to abort (none while the decision is uncertain), and every shard asked for a lock or a part, to
    /// unlock. Aborting a part whose prepare never arrived logs nothing there; one that arrives after its abort stays
    /// prepared until a resolver finds the anchor without a decision and aborts it.
    func release() -> Release? {
        let holdings = self.holdings
        let asked = holdings.locked.union(holdings.prepared).union(holdings.maybePrepared)
        switch holdings.decision {
        case .logged: return nil
        case .uncertain: return Release(abort: [], unlock: holdings.locked)
        case .none:
            let unanswered = holdings.maybePrepared.subtracting(holdings.prepared).sorted()
            return Release(abort: holdings.prepared + unanswered, unlock: asked)
        }
    }
}
