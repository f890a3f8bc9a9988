/// What a group's leader does next to move its replica set toward its target (`MemberList.targets`).
public enum RebalanceStep: Sendable, Equatable {
    /// Propose this one change of the replica set.
    case change(RaftConfigurationChange)
    /// Hand leadership to this voter first: the leader itself is to be demoted.
    case transferLeadership(to: NodeID)
}

/// Decides, for one group, the next single step from its replica set toward a target set, the way etcd operators
/// move members: add the new replica as a learner, let it catch up (from the log, or a snapshot when the log was
/// compacted past what it needs), promote it, and only then demote the voter that leaves, and finally remove it.
///
/// A pure function of the group's state as its leader sees it, called again and again (the leader takes the next
/// step once the last has committed; Raft refuses a second pending change). Its rules, in order:
/// 1. a target member that is not in the group joins as a learner;
/// 2. a target voter that is a caught-up learner (the leader replicates to it in a pipeline, at most `maximumLag`
///    entries behind) is promoted;
/// 3. once every target voter votes, a voter outside the target is demoted to learner — but the leader hands its
///    leadership to a caught-up target voter instead of demoting itself;
/// 4. a learner outside the target leaves the group, unless `keeping` holds it back.
///
/// The voters never fall below the target's count or below one, since demotions wait for the promotions; a target
/// voter that never catches up (down) stops the group's move at step 2, with its old voters still in place.
public enum RebalancePlanner {
    /// How many entries behind the leader a learner may be and still be promoted.
    public static let defaultMaximumLag: UInt64 = 64

    /// The next step for a group whose replica set is `current` and whose leader is `leader`; nil when the group
    /// has reached `target` (or must wait for a learner to catch up).
    /// - Parameters:
    ///   - followers: the leader's view of every other member (`RaftNode.followers`).
    ///   - keeping: members outside the target not to remove yet.
    public static func nextStep(
        current: RaftMembership, target: RaftMembership, leader: NodeID, followers: [RaftFollowerStatus],
        keeping: Set<NodeID> = [], maximumLag: UInt64 = RebalancePlanner.defaultMaximumLag
    ) -> RebalanceStep? {
        let progress = Dictionary(followers.map { ($0.node, $0) }, uniquingKeysWith: { $1 })
        let isCaughtUp = { (node: NodeID) -> Bool in
            node == leader || (progress[node].map { $0.state == .replicate && $0.lag <= maximumLag } ?? false)
        }
        if let newcomer = target.members.first(where: { !current.isMember($0) }) {
            return .change(.addLearner(newcomer))
        }
        if let ready = target.voters.first(where: { current.learners.contains($0) && isCaughtUp($0) }) {
            return .change(.addVoter(ready))
        }
        let targetVoters = Set(target.voters)
        if targetVoters.isSubset(of: current.voters) {
            let extra = current.voters.filter { !targetVoters.contains($0) }
            if let other = extra.first(where: { $0 != leader }) {
                return .change(.demoteVoter(other))
            }
            let successor = target.voters.filter { $0 != leader && isCaughtUp($0) }
                .min { (progress[$0]?.lag ?? 0, $0) < (progress[$1]?.lag ?? 0, $1) }
            if extra.contains(leader), let successor {
                return .transferLeadership(to: successor)
            }
        }
        if let stale = current.learners.first(where: { !target.isMember($0) && !keeping.contains($0) }) {
            return .change(.removeMember(stale))
        }
        return nil
    }
}
