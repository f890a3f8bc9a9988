/// One change of the cluster's member list, as the member-list group's log carries it (`MemberList.apply`).
///
/// Removing a member takes two changes: `leave` takes it out of the placement (its replicas move to the others,
/// one Raft change at a time), and `remove` — proposed by the member-list group's leader once no shard's group
/// counts the member any more — ends its membership.
public enum MemberChange: Sendable, Equatable {
    /// A node joins: it becomes an active member, and the placement spreads replicas onto it.
    case add(ClusterConfiguration.Node)
    /// An active member starts leaving: the placement no longer counts it, so its replicas move off.
    case leave(NodeID)
    /// A leaving member whose replicas have all moved off is no longer a member.
    case remove(NodeID)
}

/// What applying a `MemberChange` did. Every replica of the member list applies the same changes in the same order
/// and reaches the same outcome, so the node that proposed one learns from its own replica whether it was taken.
public enum MemberChangeOutcome: Sendable, Equatable {
    /// The list changed.
    case changed
    /// The list already said so (a join asked again after its answer was lost): nothing changed, which is success.
    case unchanged
    /// The change breaks a rule; the message says which and what to do instead.
    case refused(String)
}
