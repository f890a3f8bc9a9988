/// A committed entry this replica cannot apply: its bytes do not decode as anything this release knows, most likely
/// because a newer release wrote it during a rolling upgrade.
///
/// A group's application throws it in place of applying the entry. It stops that group's replica alone: the host
/// applies nothing more, takes no messages, ticks or proposals (so the group's other replicas elect a leader among
/// themselves and go on), and reports the halt in the node's status and log. Every other group on the node, and
/// the node itself, keep running. What was applied before the entry stays applied; nothing after it is applied.
/// Restarting the node with a release that reads the entry resumes the group from its log.
package struct RaftApplyHalt: Error, Sendable, Equatable, CustomStringConvertible {
    /// The group whose replica stopped.
    package var group: RaftGroupID
    /// The committed entry that could not be applied.
    package var index: UInt64
    /// The term the entry was written in (which leader wrote it).
    package var term: UInt64
    /// Why the entry could not be applied.
    package var reason: String

    package init(group: RaftGroupID, index: UInt64, term: UInt64, reason: String) {
        self.group = group
        self.index = index
        self.term = term
        self.reason = reason
    }

    package var description: String {
        "Group \(self.group.rawValue) stopped applying at committed entry \(self.index) (term \(self.term)): "
            + "\(self.reason). This replica takes no part in the group until the node restarts with a release that "
            + "reads the entry: upgrade this node to the release the other nodes run, or finish the upgrade."
    }
}
