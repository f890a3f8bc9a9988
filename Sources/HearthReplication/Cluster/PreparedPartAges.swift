import HearthCore
import HearthDatabase

/// How long this node has seen each prepared part it leads, by its own clock (so clock skew between nodes does not
/// matter), and what the resolver does with each part by that age: the resolver's bookkeeping as a value, the
/// `IntentResolver` shell only reads the shards, asks the members and calls the anchors.
struct PreparedPartAges: Sendable {
    /// How long a part is prepared before the coordinators are asked whether its transaction still runs.
    let orphanCheckAfter: Duration
    /// How long a part is prepared before a member's silence about it counts as no claim.
    let silenceAfter: Duration
    /// How long a part is prepared before it is resolved whatever the coordinators say.
    let resolveAfter: Duration
    /// When this node first saw each part prepared.
    private(set) var firstSeen: [TransactionID: ContinuousClock.Instant] = [:]

    /// The parts a pass found, by what the resolver does with them.
    struct Sorted: Sendable {
        /// Prepared for `resolveAfter` or longer: resolved whatever the coordinators say.
        var stale: [TransactionID: ShardIntent] = [:]
        /// Prepared for `orphanCheckAfter` or longer: resolved if no coordinator claims them.
        var suspects: [TransactionID: ShardIntent] = [:]
    }

    /// Notes the parts prepared `now` (a part seen for the first time starts its age now; one no longer prepared
    /// is forgotten) and sorts them by age.
    mutating func observe(_ prepared: [TransactionID: ShardIntent], now: ContinuousClock.Instant) -> Sorted {
        var seen: [TransactionID: ContinuousClock.Instant] = [:]
        var sorted = Sorted()
        for (transaction, intent) in prepared {
            let first = self.firstSeen[transaction] ?? now
            seen[transaction] = first
            if now - first >= self.resolveAfter {
                sorted.stale[transaction] = intent
            } else if now - first >= self.orphanCheckAfter {
                sorted.suspects[transaction] = intent
            }
        }
        self.firstSeen = seen
        return sorted
    }

    /// Those of `transactions` prepared for `silenceAfter` by `now`: a member silent about them claims nothing.
    func overdue(_ transactions: some Sequence<TransactionID>, at now: ContinuousClock.Instant) -> Set<TransactionID> {
        Set(transactions.filter { now - (self.firstSeen[$0] ?? now) >= self.silenceAfter })
    }

    /// How long `transaction`'s part has been prepared as of `now` (zero when it is not known here).
    func age(of transaction: TransactionID, at now: ContinuousClock.Instant) -> Duration {
        now - (self.firstSeen[transaction] ?? now)
    }

    /// Whether a part resolved at `age` was an orphan (no coordinator claimed it) rather than prepared too long.
    func isOrphan(age: Duration) -> Bool { age < self.resolveAfter }
}
