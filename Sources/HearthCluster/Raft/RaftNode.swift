/// One replica of one Raft group as a pure value state machine, after the Raft paper, Ongaro's thesis and the shape
/// of etcd-io/raft: no I/O, clock, randomness or locks inside, so a node runs many groups (one per shard) that share
/// its WAL and fsync, and a simulation replays exactly from its seeds.
///
/// Inputs: `tick()` (the shell's clock), `step(_:)` (a message from a peer), `propose(_:)`,
/// `proposeConfigurationChange(_:)`, `transferLeadership(to:)`, `readIndex(context:)`, `reportUnreachable(_:)`,
/// `reportSnapshot(to:succeeded:)`, `sendSnapshot(_:to:)`, `compact(through:)`. Output: `ready()`, whose contract
/// (persist, then send, then apply, then `advance(_:)`) is documented on `RaftReady`.
///
/// Where it departs from the paper: a configuration takes effect when its entry is appended (thesis §4.1), and a
/// leader proposes a change only after committing an entry of its term and while no other change is uncommitted;
/// followers grant a pre-vote only when they have not heard from a leader within an election timeout (thesis §9.6);
/// with check-quorum they also ignore votes while they hear from a leader unless a leadership transfer asked for
/// the election (thesis §4.2.3).
public struct RaftNode: Sendable {
    public let id: NodeID
    public let group: RaftGroupID
    public let configuration: RaftConfiguration

    public internal(set) var role = RaftRole.follower
    public internal(set) var term: UInt64
    public internal(set) var votedFor: NodeID?
    /// The leader of the current term, if known.
    public internal(set) var leader: NodeID?
    public internal(set) var log: RaftLog
    /// The replica set in effect: the latest membership entry in the log, else the snapshot's.
    public internal(set) var membership: RaftMembership
    /// The index of the entry (or snapshot) `membership` comes from.
    var membershipIndex: UInt64

    var random: RaftRandom
    var electionElapsed = 0
    var heartbeatElapsed = 0
    var randomizedElectionTimeout = 0
    /// Answers to this node's (pre-)vote requests in the current campaign.
    var votes: [NodeID: Bool] = [:]
    /// Leader only: every other member's replication state.
    var progress: [NodeID: RaftProgress] = [:]
    /// Leader only: the node leadership is being handed to.
    var transferee: NodeID?
    /// Leader only: read-index requests waiting for a heartbeat quorum, oldest first.
    var pendingReads: [PendingRead] = []
    /// Leader only: read-index requests waiting for the first commit of this term.
    var readsAwaitingCommit: [PendingRead] = []

    var messages: [RaftMessage] = []
    var readStates: [RaftReadState] = []
    /// The highest commit index a leader has told this replica of (an append's, which is the leader's own, or a
    /// heartbeat's, which the leader clips to what the replica is known to hold). It runs ahead of the replica's own
    /// commit while the replica catches up: it says how far the group has committed, not how far this log has.
    public internal(set) var leaderCommit: UInt64 = 0
    var snapshotRequests: [NodeID] = []
    var snapshotToInstall: RaftSnapshot?
    var persistedHardState: RaftHardState
    var reportedSoftState: RaftSoftState?

    /// A read-index request: the commit index when it was asked, who asked, and which voters confirmed leadership.
    struct PendingRead: Sendable {
        var context: [UInt8]
        var index: UInt64
        var requester: NodeID
        var acknowledged: Set<NodeID>
    }

    /// Restores a replica from what it persisted (or bootstraps one from `RaftPersistentState.bootstrap`). `seed`
    /// drives its randomized election timeouts; give each replica a different one.
    public init(
        id: NodeID,
        group: RaftGroupID,
        configuration: RaftConfiguration,
        restoring state: RaftPersistentState,
        seed: UInt64
    ) throws(RaftError) {
        self.id = id
        self.group = group
        self.configuration = configuration
        self.log = try RaftLog(restoring: state)
        self.term = state.hardState.term
        self.votedFor = state.hardState.votedFor
        self.persistedHardState = state.hardState
        self.random = RaftRandom(seed: seed)
        self.membership = state.snapshot.membership
        self.membershipIndex = state.snapshot.index
        self.refreshMembership()
        self.resetRandomizedElectionTimeout()
    }

    public var hardState: RaftHardState {
        RaftHardState(term: self.term, votedFor: self.votedFor, commit: self.log.committed)
    }

    public var softState: RaftSoftState {
        RaftSoftState(role: self.role, leader: self.leader, term: self.term)
    }

    /// Whether this node may campaign: it is a voter in the membership it knows.
    var isPromotable: Bool { self.membership.isVoter(self.id) }

    /// Advances the node's clock by one tick: followers time out into elections, leaders send heartbeats and check
    /// their quorum.
    public mutating func tick() {
        if self.role == .leader {
            self.tickLeader()
        } else {
            self.electionElapsed += 1
            if self.isPromotable && self.electionElapsed >= self.randomizedElectionTimeout {
                self.electionElapsed = 0
                self.campaign(preVote: self.configuration.preVote, transfer: false)
            }
        }
    }

    /// Proposes `data` as a new command entry; only the leader accepts it.
    public mutating func propose(_ data: [UInt8]) -> RaftProposal {
        guard self.role == .leader else { return .notLeader(leaderHint: self.leader) }
        if let transferee = self.transferee { return .rejected(.transferringLeadership(to: transferee)) }
        let index = self.appendAsLeader(.command(data))
        self.broadcastAppend()
        return .accepted(index: index, term: self.term)
    }

    mutating func send(_ kind: RaftMessage.Kind, to node: NodeID, term: UInt64? = nil) {
        self.messages.append(
            RaftMessage(group: self.group, from: self.id, to: node, term: term ?? self.term, kind: kind)
        )
    }

    mutating func resetRandomizedElectionTimeout() {
        let base = self.configuration.electionTicks
        self.randomizedElectionTimeout = base + self.random.next(below: base)
    }
}
