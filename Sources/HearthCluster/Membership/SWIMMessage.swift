/// What SWIM members send each other (SWIM §3–4): a probe, a request to probe on the sender's behalf, and the two
/// answers. Every message but `nack` piggybacks gossip: member records the receiver merges into its own table.
public enum SWIMMessage: Sendable, Hashable {
    case ping(Ping)
    case pingRequest(PingRequest)
    case ack(Ack)
    case nack(Nack)

    /// "Are you alive?" The sender's own record rides along, so a node that never heard of the sender learns its
    /// address and generation from the first ping.
    public struct Ping: Sendable, Hashable {
        public var origin: SWIMMember
        public var sequence: UInt64
        /// Set by a joining node: the ack then carries every member the receiver knows instead of a gossip sample.
        public var wantsFullState: Bool
        public var gossip: [SWIMMember]

        public init(origin: SWIMMember, sequence: UInt64, wantsFullState: Bool = false, gossip: [SWIMMember] = []) {
            self.origin = origin
            self.sequence = sequence
            self.wantsFullState = wantsFullState
            self.gossip = gossip
        }
    }

    /// "Please ping `target` for me and relay its answer" (indirect probe).
    public struct PingRequest: Sendable, Hashable {
        public var origin: SWIMMember
        public var target: NodeID
        public var sequence: UInt64
        public var gossip: [SWIMMember]

        public init(origin: SWIMMember, target: NodeID, sequence: UInt64, gossip: [SWIMMember] = []) {
            self.origin = origin
            self.target = target
            self.sequence = sequence
            self.gossip = gossip
        }
    }

    /// "`target` is alive": sent by the target itself, or relayed by a member that probed it for the receiver.
    /// `sequence` is the one of the ping or ping request being answered.
    public struct Ack: Sendable, Hashable {
        public var target: SWIMMember
        public var sequence: UInt64
        public var gossip: [SWIMMember]

        public init(target: SWIMMember, sequence: UInt64, gossip: [SWIMMember] = []) {
            self.target = target
            self.sequence = sequence
            self.gossip = gossip
        }
    }

    /// "I could not reach `target` for you either" (Lifeguard §IV.A): tells the prober that the relay is alive.
    public struct Nack: Sendable, Hashable {
        public var target: NodeID
        public var sequence: UInt64

        public init(target: NodeID, sequence: UInt64) {
            self.target = target
            self.sequence = sequence
        }
    }
}
