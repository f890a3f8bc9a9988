/// What `SWIMInstance` asks its shell to do after an input: the instance does no I/O, keeps no clock and sets no
/// timers, so every handler returns these, in the order the shell should carry them out.
public enum SWIMDirective: Sendable, Hashable {
    /// Send `message` to member `to` over the peer transport (loss is fine: SWIM expects it).
    case send(SWIMMessage, to: NodeID)
    /// Make sure a connection to `address` exists (a seed whose name is not known yet), then call
    /// `SWIMInstance.onHandshake(peer:now:)` with the name the transport's handshake learned, also when the
    /// connection was already up. Failing to connect needs no report: the instance asks again on later ticks.
    case connect(SWIMAddress)
    /// Call `SWIMInstance.onTimeout(_:now:)` with `timer` after `delay`. Timers need no cancelling: the instance
    /// ignores a timer whose probe was already answered.
    case startTimer(SWIMTimer, after: Duration)
    /// Something changed in the membership; route it to observers (shard placement, leader routing, status).
    case event(SWIMEvent)
}

/// Identifies one outstanding probe step, so a timer that fires late (or twice) is recognised and ignored.
public struct SWIMTimer: Sendable, Hashable, CustomStringConvertible {
    /// The sequence number of the probe the timer guards.
    public let sequence: UInt64
    /// Which step of that probe: 0 the direct ping, 1 the wait for relayed acks.
    public let step: UInt8

    public init(sequence: UInt64, step: UInt8) {
        self.sequence = sequence
        self.step = step
    }

    public var description: String { "timer(\(self.sequence).\(self.step))" }
}
