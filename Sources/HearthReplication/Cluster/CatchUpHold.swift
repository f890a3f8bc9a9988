/// Whether a cluster member takes its clients' requests yet: one that has just started (after a crash, say, with
/// its shards' leaders far ahead of it) holds them until it has caught up — what `/.ready` answers
/// (`ReplicatedDatabase.notReadyReason`) — or until `maximumHold` after it opened, whichever comes first. From then
/// on it serves for good: a later lapse (an election, a partition) is the writes' own business, with their own
/// bounds.
///
/// "Caught up" is judged against the shards' leaders, not the member's own commit indexes: a leader's heartbeat
/// commits a follower only to what it holds, so by its own index a member thousands of entries behind looked caught
/// up at its first heartbeat (the simulation served 600–760 entries behind). The shell asks each shard's leader for
/// its commit index once the member opened (a read index: the leader's commit, confirmed with a quorum) and the member
/// has caught up once it applied all but an allowance of those (`lagging`).
///
/// A member that serves while it catches up coordinates its clients' writes and compare-and-sets slowly (it is busy
/// applying what it missed, its reads wait for it to apply through their read indexes) and answers other members'
/// questions late; held, its clients wait once instead of losing several rounds. A held request is only delayed,
/// never refused, so no client sees an error the hold caused.
struct CatchUpHold: Sendable, Equatable {
    /// When the member opened its database.
    let opened: ContinuousClock.Instant
    /// The longest a request is held after `opened`; zero serves at once.
    let maximumHold: Duration
    /// When the member began to serve, and whether it had caught up then (else the hold ran out).
    private(set) var served: Served?
    /// Each shard's commit index as its leader gave it after the member opened.
    private(set) var leaderCommits: [Int: UInt64] = [:]

    /// The moment the member began to serve.
    struct Served: Sendable, Equatable {
        let at: ContinuousClock.Instant
        /// Whether it had caught up then; false when the hold ran out first.
        let caughtUp: Bool
    }

    /// What a look at the member's state decided.
    enum Decision: Sendable, Equatable {
        /// Serve requests; `began` when this look is the one that ended the hold (log it once).
        case serve(began: Bool)
        /// Hold requests; look again by `until` at the latest.
        case hold(until: ContinuousClock.Instant)
    }

    init(opened: ContinuousClock.Instant, maximumHold: Duration) {
        self.opened = opened
        self.maximumHold = max(maximumHold, .zero)
    }

    /// The moment the hold runs out whatever the member's state.
    var deadline: ContinuousClock.Instant { self.opened + self.maximumHold }

    /// Whether requests are served now.
    var isServing: Bool { self.served != nil }

    /// Decides at `now`, given whether the member has caught up (`/.ready` answers 200).
    mutating func decide(now: ContinuousClock.Instant, caughtUp: Bool) -> Decision {
        if self.served != nil { return .serve(began: false) }
        guard caughtUp || now >= self.deadline else { return .hold(until: self.deadline) }
        self.served = Served(at: now, caughtUp: caughtUp)
        return .serve(began: true)
    }

    /// `shard`'s leader had committed through `index` when asked.
    mutating func learned(shard: Int, leaderCommit index: UInt64) {
        self.leaderCommits[shard] = max(self.leaderCommits[shard] ?? 0, index)
    }

    /// The first of `shards` the member has not caught up on: its leader's commit index not known yet, or more than
    /// `allowance` of it not applied (`applied` gives what the member applied of a shard); nil when none.
    func lagging(_ shards: [Int], allowance: UInt64, applied: (Int) -> UInt64) -> Lagging? {
        for shard in shards {
            guard let target = self.leaderCommits[shard] else { return Lagging(shard: shard, target: nil) }
            let (reach, overflow) = applied(shard).addingReportingOverflow(allowance)
            if !overflow, reach < target { return Lagging(shard: shard, target: target) }
        }
        return nil
    }

    /// A shard the member has not caught up on, and its leader's commit index when known.
    struct Lagging: Sendable, Equatable {
        let shard: Int
        let target: UInt64?
    }

    /// How long the member held requests before it served, once it does.
    var heldFor: Duration? { self.served.map { $0.at - self.opened } }
}
