/// A change in how this node sees another member, for observers outside SWIM (shard placement, routing writes to
/// shard leaders, `/.cluster`). Each carries the member's record after the change.
public enum SWIMEvent: Sendable, Hashable, CustomStringConvertible {
    /// A member this node did not know before (including the cluster's members a joining node learns).
    case joined(SWIMMember)
    /// A suspect member refuted the suspicion: it is alive again.
    case alive(SWIMMember)
    /// A member missed its probes; it may still refute. Observers usually wait for `dead`.
    case suspect(SWIMMember)
    /// The failure detector declared the member failed.
    case dead(SWIMMember)
    /// The member left the cluster on purpose.
    case left(SWIMMember)
    /// A new run (generation) of a known member replaced its old record: the process restarted.
    case rejoined(SWIMMember)

    /// The member the event is about.
    public var member: SWIMMember {
        switch self {
        case .joined(let member), .alive(let member), .suspect(let member), .dead(let member), .left(let member),
            .rejoined(let member):
            member
        }
    }

    public var description: String {
        switch self {
        case .joined(let member): "joined \(member)"
        case .alive(let member): "alive \(member)"
        case .suspect(let member): "suspect \(member)"
        case .dead(let member): "dead \(member)"
        case .left(let member): "left \(member)"
        case .rejoined(let member): "rejoined \(member)"
        }
    }
}
