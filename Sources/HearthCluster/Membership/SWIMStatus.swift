/// How the cluster currently sees one member, as gossiped between nodes.
///
/// Within one generation the statuses are ordered as in the SWIM paper (§4.2): `alive` with a higher incarnation
/// overrides `suspect`, `suspect` overrides `alive` at the same or lower incarnation, and `dead` or `left` override
/// everything. A record of a newer generation (the member restarted) overrides any record of an older one.
public enum SWIMStatus: Sendable, Hashable, CustomStringConvertible {
    /// The member answers probes (directly or through others).
    case alive
    /// Some members could not reach it; it becomes `dead` unless it refutes the suspicion (by raising its
    /// incarnation) before the suspicion times out. `suspectedBy` holds the members that independently suspected it,
    /// in ascending order; more of them make the timeout shorter (Lifeguard §IV.B).
    case suspect(suspectedBy: [NodeID])
    /// Declared failed by the failure detector; only a newer generation brings the name back.
    case dead
    /// Left the cluster on purpose (`SWIMInstance.leave`); treated like `dead`, but observers know it was planned.
    case left

    /// Whether the member is `dead` or `left`: kept only as a tombstone.
    public var isDown: Bool {
        switch self {
        case .alive, .suspect: false
        case .dead, .left: true
        }
    }

    public var isSuspect: Bool {
        if case .suspect = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .alive: "alive"
        case .suspect(let suspectedBy): "suspect(by: \(suspectedBy.map(\.name).joined(separator: ",")))"
        case .dead: "dead"
        case .left: "left"
        }
    }
}
