/// A committed entry this replica cannot apply: its bytes do not decode as anything this release knows, most likely
/// because a newer release wrote it during a rolling upgrade — or the log is damaged (an entry's index in its
/// shard's own log skips or repeats one).
///
/// A group's application throws it in place of applying the entry. It stops that group's replica alone: the host
/// applies nothing more, takes no messages, ticks or proposals (so the group's other replicas elect a leader among
/// themselves and go on), and reports the halt in the node's status and log. Every other group on the node, and
/// the node itself, keep running. What was applied before the entry stays applied; nothing after it is applied.
/// Restarting the node with a release that reads the entry resumes the group from its log; a damaged log needs the
/// member replaced or its data directory restored.
package struct RaftApplyHalt: Error, Sendable, Equatable, CustomStringConvertible {
    /// Why the replica cannot go on, which decides what the operator is told to do.
    package enum Cause: Sendable, Equatable {
        /// The entry does not decode as anything this release knows: an upgrade that is not finished.
        case unreadable
        /// The entry decodes but does not fit the log before it: the log is damaged.
        case damagedLog
    }

    /// The group whose replica stopped.
    package var group: RaftGroupID
    /// The committed entry that could not be applied.
    package var index: UInt64
    /// The term the entry was written in (which leader wrote it).
    package var term: UInt64
    /// Why the entry could not be applied.
    package var reason: String
    /// Which kind of failure it is (what the operator is told to do).
    package var cause: Cause

    package init(group: RaftGroupID, index: UInt64, term: UInt64, reason: String, cause: Cause = .unreadable) {
        self.group = group
        self.index = index
        self.term = term
        self.reason = reason
        self.cause = cause
    }

    package var description: String {
        let head =
            "Group \(self.group.rawValue) stopped applying at committed entry \(self.index) (term \(self.term)): "
            + "\(self.reason). "
        switch self.cause {
        case .unreadable:
            return head + "This replica takes no part in the group until the node restarts with a release that "
                + "reads the entry: \(self.remedy)."
        case .damagedLog:
            return head + "This replica takes no part in the group: \(self.remedy)."
        }
    }

    /// What the operator does about it, by cause: the one wording the log, `/.ready` and refused clients share.
    package var remedy: String {
        switch self.cause {
        case .unreadable:
            "upgrade this node to the release the other nodes run, or finish the upgrade"
        case .damagedLog:
            "this replica's log is damaged; replace this member (remove it and join it again with an empty data "
                + "directory, so it copies the group from the others) or restore its data directory from a backup"
        }
    }
}
