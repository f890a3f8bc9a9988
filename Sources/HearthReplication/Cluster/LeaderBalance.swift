import HearthCluster

/// When a node hands the shards it leads back to their preferred leaders (the placement spreads those evenly over
/// the nodes), so that after elections leave several shards on one node the load spreads out again — and how,
/// without costing the shard's compare-and-sets their turns.
///
/// A shard goes to its preferred leader only once that node has **settled**: it is reachable, holds the shard's
/// whole log (a voter in `replicate`, lagging by nothing), and neither (re)joined nor came back from being unreachable
/// within `settlePeriod`. A node that has just restarted is busy catching up on every shard; handed shards then, it
/// leads them slowly and the compare-and-sets on their locations lose rounds (issue 35, target 5: handovers 0.8 s and
/// 3.8 s after a killed node restarted each cost those posts a few hundred milliseconds of retries). A restart is
/// seen as a new connection from the peer (its link's `connectionsEstablished` grows), a cut as the peer being
/// unreachable.
///
/// A handover **drains** first: the shard's locations are paused at this node's compare-and-set gate (nothing new
/// starts there), the running compare-and-sets finish (at most `drainBound`), then leadership is transferred and the
/// pause ends once another node leads (at most `handoverBound` after). Handovers start in rounds every `round`, as
/// before; the eventual result is the same: every shard led by its preferred leader when that node is settled.
///
/// A pure value: the shell (`ClusterNode.balanceLeaders`, with `ReplicatedDatabase+Balance.swift`) reports peers
/// and shards with the time, and carries out the actions.
struct LeaderBalance: Sendable {
    /// The bounds.
    struct Settings: Sendable, Equatable {
        /// How long a peer must stay reachable after it (re)joined or came back before shards are handed to it.
        var settlePeriod = Duration.seconds(5)
        /// How often handovers start.
        var round = Duration.seconds(3)
        /// The longest a handover waits for the shard's running compare-and-sets to finish.
        var drainBound = Duration.milliseconds(500)
        /// The longest the shard stays paused after the transfer began, waiting for another node to lead it.
        var handoverBound = Duration.seconds(1)
    }

    /// What this node knows of a peer.
    struct Peer: Sendable, Equatable {
        /// The peer's link's connections so far (a new one: it restarted, or the link broke).
        var connections: UInt64
        var isReachable: Bool
        /// Whether it was reachable at any look so far.
        var wasReachable: Bool
        /// Since when it has been reachable again after it restarted or was cut off; nil when it has been
        /// reachable since this node first saw it so.
        var settlingSince: ContinuousClock.Instant?
    }

    /// One shard as this node sees it at a look.
    struct Shard: Sendable, Equatable {
        var shard: Int
        /// The shard's preferred leader.
        var preferred: NodeID
        /// Whether this node leads it now.
        var isLeader: Bool
        /// Whether this node may hand it over now: it takes appends and is not transferring it already.
        var canHandOver: Bool
        /// Whether `preferred` holds the shard's whole log — a voter in `replicate` lagging by nothing — and answered
        /// within the last two heartbeats (a leader cut off from the others saw its peers' logs whole until the cut,
        /// and started a handover that could not complete 0.6 s into a partition).
        var preferredCaughtUp: Bool
        /// Compare-and-sets running at the shard's locations in this node's gate.
        var running: Int
    }

    /// A handover in progress.
    enum Handover: Sendable, Equatable {
        /// The shard's locations are paused; waiting for the running compare-and-sets since `since`.
        case draining(to: NodeID, since: ContinuousClock.Instant)
        /// Leadership is being transferred since `since`; the pause ends once another node leads.
        case transferring(to: NodeID, since: ContinuousClock.Instant)
    }

    /// What the shell does.
    enum Action: Sendable, Equatable {
        /// Pause the shard's locations at this node's gate.
        case pause(shard: Int)
        /// Transfer the shard's leadership to the node.
        case transfer(shard: Int, to: NodeID)
        /// End the pause of the shard's locations.
        case resume(shard: Int)
    }

    let node: NodeID
    let settings: Settings
    private(set) var peers: [NodeID: Peer] = [:]
    private(set) var handovers: [Int: Handover] = [:]
    /// When the next round of handovers may start; nil before the first look.
    private(set) var nextRound: ContinuousClock.Instant?

    init(node: NodeID, settings: Settings = Settings()) {
        self.node = node
        self.settings = settings
    }

    /// A look at a peer: whether it can be talked to, and its link's connections so far. A peer reachable since this
    /// node first saw it so counts as settled (nothing says it restarted: both may have just started); a new
    /// connection from a peer seen reachable before, or its coming back from unreachable, starts its settle period.
    mutating func observe(
        _ peer: NodeID, isReachable: Bool, connections: UInt64, now: ContinuousClock.Instant
    ) {
        var known =
            self.peers[peer]
            ?? Peer(connections: connections, isReachable: isReachable, wasReachable: false, settlingSince: nil)
        if isReachable, known.wasReachable, !known.isReachable || connections != known.connections {
            known.settlingSince = now
        }
        known.isReachable = isReachable
        known.wasReachable = known.wasReachable || isReachable
        known.connections = connections
        self.peers[peer] = known
    }

    /// Whether shards may be handed to `peer` at `now`.
    func isSettled(_ peer: NodeID, now: ContinuousClock.Instant) -> Bool {
        guard let known = self.peers[peer], known.isReachable else { return false }
        guard let since = known.settlingSince else { return true }
        return now >= since + self.settings.settlePeriod
    }

    /// Whether a step at `now` has anything to decide (a handover in progress, or a round due), so the shell looks
    /// at the shards only then.
    func isDue(now: ContinuousClock.Instant) -> Bool {
        !self.handovers.isEmpty || self.nextRound.map { now >= $0 } ?? true
    }

    /// Decides at `now` from the shards as this node sees them: handovers that go on, end or give up, and, once a
    /// round is due, new ones for the shards this node leads whose preferred leader has settled.
    mutating func step(now: ContinuousClock.Instant, shards: [Shard]) -> [Action] {
        var actions: [Action] = []
        let byShard = Dictionary(shards.map { ($0.shard, $0) }, uniquingKeysWith: { $1 })
        for (shard, handover) in self.handovers.sorted(by: { $0.key < $1.key }) {
            let facts = byShard[shard]
            switch handover {
            case .draining(let target, let since):
                guard let facts, facts.isLeader, facts.canHandOver, facts.preferred == target,
                    facts.preferredCaughtUp, self.isSettled(target, now: now)
                else {
                    self.handovers[shard] = nil
                    actions.append(.resume(shard: shard))
                    continue
                }
                guard facts.running == 0 || now >= since + self.settings.drainBound else { continue }
                self.handovers[shard] = .transferring(to: target, since: now)
                actions.append(.transfer(shard: shard, to: target))
            case .transferring(_, let since):
                guard facts?.isLeader != true || now >= since + self.settings.handoverBound else { continue }
                self.handovers[shard] = nil
                actions.append(.resume(shard: shard))
            }
        }
        guard let next = self.nextRound, now >= next else {
            // The first round comes a round after the first look, as the first look finds the links just opening.
            if self.nextRound == nil { self.nextRound = now + self.settings.round }
            return actions
        }
        self.nextRound = now + self.settings.round
        for facts in shards.sorted(by: { $0.shard < $1.shard }) where self.handovers[facts.shard] == nil {
            guard facts.isLeader, facts.canHandOver, facts.preferred != self.node, facts.preferredCaughtUp,
                self.isSettled(facts.preferred, now: now)
            else { continue }
            self.handovers[facts.shard] = .draining(to: facts.preferred, since: now)
            actions.append(.pause(shard: facts.shard))
        }
        return actions
    }

    /// The transfer of `shard` could not begin (the Raft node refused it): the handover ends and the pause with it.
    mutating func transferFailed(shard: Int) -> [Action] {
        guard self.handovers.removeValue(forKey: shard) != nil else { return [] }
        return [.resume(shard: shard)]
    }
}
