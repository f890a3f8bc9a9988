/// What the clients know about the stars they toggled: for every (post, user) pair, whether the star is set, or
/// that an answer was lost and it may be either; and the Jepsen counter's inputs, the acknowledged and uncertain
/// stars and un-stars.
///
/// Each client keeps its own ledger (it alone toggles its pairs); the run merges them for the checks.
public struct StarLedger: Sendable, Equatable {
    /// One star: a post and a user, by index.
    public struct Pair: Sendable, Hashable, Comparable {
        public var post: Int
        public var user: Int

        public init(post: Int, user: Int) {
            self.post = post
            self.user = user
        }

        public static func < (lhs: Pair, rhs: Pair) -> Bool { (lhs.post, lhs.user) < (rhs.post, rhs.user) }
    }

    /// How one toggle ended, as its client saw it.
    public enum Outcome: Sendable {
        /// Acknowledged: the star is now set (`starring`) or removed.
        case applied
        /// Refused, or given up: nothing changed.
        case unchanged
        /// No answer (the run ended or the connection was lost for good): it may or may not have happened.
        case uncertain
    }

    /// Pairs whose star is set; a pair in neither set nor `uncertain` has none.
    public private(set) var starred: Set<Pair> = []
    /// Pairs whose last toggle went unanswered.
    public private(set) var uncertain: Set<Pair> = []
    public private(set) var acknowledgedStars = 0
    public private(set) var acknowledgedUnstars = 0
    public private(set) var uncertainStars = 0
    public private(set) var uncertainUnstars = 0

    public init() {}

    /// Whether the pair's star is set; nil once a toggle of it went unanswered (the client leaves it alone then).
    public func isStarred(_ pair: Pair) -> Bool? {
        self.uncertain.contains(pair) ? nil : self.starred.contains(pair)
    }

    /// Records a toggle of `pair` that meant to star it (`starring`) or remove its star.
    public mutating func record(_ pair: Pair, starring: Bool, _ outcome: Outcome) {
        switch outcome {
        case .applied:
            if starring {
                self.acknowledgedStars += 1
                self.starred.insert(pair)
            } else {
                self.acknowledgedUnstars += 1
                self.starred.remove(pair)
            }
        case .unchanged:
            break
        case .uncertain:
            if starring { self.uncertainStars += 1 } else { self.uncertainUnstars += 1 }
            self.starred.remove(pair)
            self.uncertain.insert(pair)
        }
    }

    /// Adds another client's ledger (their pairs never overlap).
    public mutating func merge(_ other: StarLedger) {
        self.starred.formUnion(other.starred)
        self.uncertain.formUnion(other.uncertain)
        self.acknowledgedStars += other.acknowledgedStars
        self.acknowledgedUnstars += other.acknowledgedUnstars
        self.uncertainStars += other.uncertainStars
        self.uncertainUnstars += other.uncertainUnstars
    }

    /// The range the stars stored over all posts may total: the acknowledged stars minus un-stars, plus any of the
    /// uncertain stars, minus any of the uncertain un-stars (Jepsen's counter check).
    public var totalBounds: ClosedRange<Int> {
        let certain = self.acknowledgedStars - self.acknowledgedUnstars
        return (certain - self.uncertainUnstars)...(certain + self.uncertainStars)
    }
}
