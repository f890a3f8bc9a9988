/// The SWIM failure detector and membership gossip of one node, as a value with no I/O: inputs are messages,
/// timer expiries, handshakes and periodic ticks, each carrying `now` (monotonic time from the shell); outputs are
/// `SWIMDirective`s. Randomness comes from the generator given at init, so a seeded one replays a run exactly.
///
/// The protocol follows SWIM (Das, Gupta, Motivala, 2002): every `probeInterval` probe one member, chosen in a
/// shuffled round-robin; if its ack misses `pingTimeout`, ask `indirectProbeCount` others to probe it; if none
/// relays an ack within `pingRequestTimeout`, suspect it; a suspicion not refuted in time makes it `dead`. Updates
/// ride on probes and acks (infection-style), each sent `gossipMultiplier × ⌈log₂(n + 1)⌉` times. From Lifeguard
/// (Dadgar et al., 2017) it takes nacks from relays, the buddy system (a suspect hears of its suspicion from whoever
/// probes it) and a suspicion timeout that shortens with independent suspicions — linearly between
/// `suspicionTimeoutMax` and `suspicionTimeoutMin` rather than logarithmically. It leaves out Lifeguard's local
/// health multiplier.
///
/// Departures from the papers: members carry a `generation` (one per process run) so a restarted node supersedes
/// its own tombstone; a live node that hears it was declared dead starts a new generation instead of staying out;
/// and a graceful leave is a `left` status, final like `dead`.
public struct SWIMInstance: Sendable {
    public let settings: SWIMSettings
    /// This node's own record, as it gossips it.
    public internal(set) var myself: SWIMMember

    /// Every other member this node knows, tombstones (`dead`, `left`) included until `tombstoneTime` passes.
    var records: [NodeID: Record] = [:]
    /// Probes waiting for an ack, by sequence number.
    var probes: [UInt64: Probe] = [:]
    var nextSequence: UInt64
    /// This round's probe order (SWIM §4.3: shuffled round-robin) and the next position in it.
    var probeOrder: [NodeID] = []
    var probeIndex = 0
    var gossip = SWIMGossipQueue()
    /// Addresses to join through until some other member is known.
    var seeds: [SWIMAddress] = []
    /// When this node last pinged a dead member (`reconnectInterval`).
    var lastReconnect: Duration?
    var random: any RandomNumberGenerator & Sendable

    /// What this node knows of another member, beyond the gossiped record.
    struct Record: Sendable {
        var member: SWIMMember
        /// When this node first saw the current suspicion (its own clock): the suspicion timeout counts from here.
        var suspectedAt: Duration?
        /// When this node learned the member is `dead` or `left`: the tombstone expires `tombstoneTime` later.
        var downAt: Duration?
    }

    /// An outstanding probe: this node's own (direct, then through relays), one it runs for `relay`, or a join.
    struct Probe: Sendable {
        var target: NodeID
        var step: UInt8
        var relay: Relay?
        var isJoin = false
    }

    /// The member that asked this node to probe, and the sequence number its ack must carry.
    struct Relay: Sendable {
        var origin: NodeID
        var sequence: UInt64
    }

    /// - Parameters:
    ///   - myself: this node's record: its configured name, addresses and the generation of this process run
    ///     (the shell uses the wall-clock milliseconds at start so a restart supersedes the old run).
    ///   - random: the source of every random choice (`SystemRandomNumberGenerator` in production, a seeded
    ///     generator in simulations).
    public init(
        myself: SWIMMember,
        settings: SWIMSettings = SWIMSettings(),
        random: any RandomNumberGenerator & Sendable
    ) throws(SWIMSettingsError) {
        try settings.validate()
        self.settings = settings
        self.myself = myself
        self.myself.incarnation = 0
        self.myself.status = .alive
        self.random = random
        self.nextSequence = UInt64(UInt32.random(in: 1...UInt32.max, using: &self.random))
    }

    /// The record of member `id` (this node's own for `myself.id`), tombstones included.
    public func member(_ id: NodeID) -> SWIMMember? {
        id == self.myself.id ? self.myself : self.records[id]?.member
    }

    /// Every other member known, sorted by name, tombstones included.
    public var members: [SWIMMember] {
        self.records.keys.sorted().compactMap { self.records[$0]?.member }
    }

    /// Other members that are `alive` or `suspect`, sorted by name.
    public var reachableMembers: [SWIMMember] {
        self.members.filter { !$0.status.isDown }
    }

    /// How many members count for dissemination: this node plus every other member not down.
    var clusterSize: Int {
        1 + self.records.values.count { !$0.member.status.isDown }
    }

    mutating func takeSequence() -> UInt64 {
        defer { self.nextSequence &+= 1 }
        return self.nextSequence
    }
}
