/// The knobs of the SWIM failure detector and its gossip, with defaults for nodes on one network (a LAN or one
/// machine). `validate()` refuses combinations that cannot work; `SWIMInstance` calls it.
public struct SWIMSettings: Sendable, Hashable {
    /// How often a node probes one other member (the SWIM protocol period). The shell calls
    /// `SWIMInstance.onPeriodicTick` at this interval.
    public var probeInterval: Duration = .seconds(1)
    /// How long a direct ping waits for its ack before the prober asks others to probe for it.
    public var pingTimeout: Duration = .milliseconds(300)
    /// How long the prober waits for an ack relayed by the members it asked (after `pingTimeout`); must exceed
    /// `pingTimeout`, which is how long each of those members waits for the target.
    public var pingRequestTimeout: Duration = .milliseconds(600)
    /// How many members are asked to probe a target that missed a direct ping (SWIM's k).
    public var indirectProbeCount = 3
    /// A suspicion raised by one member becomes `dead` after this long unless refuted.
    public var suspicionTimeoutMax: Duration = .seconds(10)
    /// The shortest suspicion timeout, reached once `suspicionConfirmations` other members suspect it too.
    public var suspicionTimeoutMin: Duration = .seconds(3)
    /// Independent confirmations that bring the suspicion timeout down to `suspicionTimeoutMin` (Lifeguard's K).
    public var suspicionConfirmations = 3
    /// Each update is piggybacked `gossipMultiplier × ⌈log₂(n + 1)⌉` times (SWIM's λ·log n).
    public var gossipMultiplier = 3
    /// At most this many member records ride on one message (a joiner's full member list is exempt). Fewer than
    /// 16 let refutations queue behind other news under heavy loss (measured in `SWIMSimulationTests`).
    public var maxGossipPerMessage = 16
    /// How long a `dead` or `left` record is kept so late gossip cannot bring that run of the member back.
    public var tombstoneTime: Duration = .seconds(3_600)
    /// How often a node pings one member it holds as `dead`, so the two sides of a healed partition (each of which
    /// declared the other dead) find each other again.
    public var reconnectInterval: Duration = .seconds(10)

    public init() {}

    /// Throws when a setting cannot work, naming the setting and the allowed range.
    public func validate() throws(SWIMSettingsError) {
        try Self.requirePositive(self.probeInterval, "probeInterval")
        try Self.requirePositive(self.pingTimeout, "pingTimeout")
        try Self.requirePositive(self.pingRequestTimeout, "pingRequestTimeout")
        try Self.requirePositive(self.suspicionTimeoutMin, "suspicionTimeoutMin")
        try Self.requirePositive(self.reconnectInterval, "reconnectInterval")
        guard self.pingRequestTimeout > self.pingTimeout else {
            throw SWIMSettingsError(
                .outOfRange,
                "pingRequestTimeout (\(self.pingRequestTimeout)) must be longer than pingTimeout "
                    + "(\(self.pingTimeout)): the members probing on our behalf wait pingTimeout themselves"
            )
        }
        guard self.suspicionTimeoutMax >= self.suspicionTimeoutMin else {
            throw SWIMSettingsError(
                .outOfRange,
                "suspicionTimeoutMax (\(self.suspicionTimeoutMax)) must be at least suspicionTimeoutMin "
                    + "(\(self.suspicionTimeoutMin))"
            )
        }
        guard self.tombstoneTime >= self.suspicionTimeoutMax else {
            throw SWIMSettingsError(
                .outOfRange,
                "tombstoneTime (\(self.tombstoneTime)) must be at least suspicionTimeoutMax "
                    + "(\(self.suspicionTimeoutMax)), or late gossip brings dead members back"
            )
        }
        try Self.requireCount(self.indirectProbeCount, "indirectProbeCount", in: 0...64)
        try Self.requireCount(self.suspicionConfirmations, "suspicionConfirmations", in: 1...64)
        try Self.requireCount(self.gossipMultiplier, "gossipMultiplier", in: 1...64)
        try Self.requireCount(self.maxGossipPerMessage, "maxGossipPerMessage", in: 1...1_024)
    }

    private static func requirePositive(_ value: Duration, _ name: String) throws(SWIMSettingsError) {
        guard value > .zero else {
            throw SWIMSettingsError(.outOfRange, "\(name) must be longer than zero, not \(value)")
        }
    }

    private static func requireCount(_ value: Int, _ name: String, in range: ClosedRange<Int>)
        throws(SWIMSettingsError)
    {
        guard range.contains(value) else {
            throw SWIMSettingsError(
                .outOfRange,
                "\(name) must be between \(range.lowerBound) and \(range.upperBound), not \(value)"
            )
        }
    }
}
