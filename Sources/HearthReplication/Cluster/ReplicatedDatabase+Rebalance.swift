import HearthCluster
import HearthDatabase
import HearthSystem

/// Moving replicas after the member list changed: every few hundred milliseconds, each group this node leads takes
/// its next step toward the placement the list gives (`RebalancePlanner`), and the member list's leader removes a
/// leaving member once no shard's group counts it any more.
///
/// Each step is one Raft configuration change (or a leadership transfer), so writes go on throughout: a learner
/// catches up from the log or by snapshot while the old voters keep committing, and a leader that is to lose its
/// vote hands leadership over first (a pause of about one round trip). Every node steps only the groups it leads,
/// from the list its own replica has applied; a lagging replica may briefly aim at an older target, and the next
/// leader with a newer list moves the group on from wherever it stands.
extension ReplicatedDatabase {
    /// Takes a step every `rebalanceInterval` until cancelled; compacts the member list's log as it changes.
    /// - Throws: a `StorageError` when the member list's snapshot cannot be made durable (the disk is failing).
    func rebalanceUntilCancelled() async throws {
        while (try? await self.log.clock.sleep(for: self.rebalanceInterval)) != nil {
            self.rebalanceOnce()
            try await self.directory.compactIfDue(service: self.service)
        }
    }

    /// One step for every group this node leads, and the removal of a leaving member that no shard counts any more.
    /// - Returns: what it did, one line per group (for logs and tests).
    @discardableResult
    func rebalanceOnce() -> [String] {
        let list = self.directory.list
        guard list.member(self.node) != nil else { return [] }
        let targets = list.targets(shardCount: self.log.router.shardCount)
        var done: [String] = []
        for group in self.service.groups {
            guard let host = self.service.host(group), let target = targets[group], host.softState.role == .leader,
                !host.isTransferring
            else { continue }
            let keeping = group == .members ? self.removedMembersToKeep(list, host: host) : []
            guard
                let step = RebalancePlanner.nextStep(
                    current: host.membership, target: target, leader: self.node, followers: host.status.followers,
                    keeping: keeping)
            else { continue }
            if let line = self.take(step, in: host) { done.append(line) }
        }
        if self.service.host(.members)?.softState.role == .leader {
            done += self.removeDepartedMembers(list)
        }
        return done
    }

    /// Carries out one step; returns a line saying what was done, or nil when Raft refused it for now (a change
    /// still uncommitted, a new leader not ready): the next round tries again.
    private func take(_ step: RebalanceStep, in host: RaftGroupHost) -> String? {
        let name = host.group == .members ? "member list" : "shard \(host.group.rawValue)"
        switch step {
        case .change(let change):
            let proposal = (try? host.withNode { node throws(RaftError) in node.proposeConfigurationChange(change) })
            guard case .accepted? = proposal else { return nil }
            return "\(name): \(Self.describe(change))"
        case .transferLeadership(let target):
            do {
                try host.withNode { node throws(RaftError) in try node.transferLeadership(to: target) }
            } catch {
                return nil
            }
            return "\(name): leadership to \(target) before giving up its vote"
        }
    }

    /// How many rounds the member list's group keeps a removed member that has not received its removal: long
    /// enough for one that is up to receive it, short enough not to wait long on one that is down.
    static let removedMemberRounds = 20

    /// Removed members the member list's group keeps as learners a little longer: those that have not received the
    /// entry that removed them, so each that is up learns it was removed and stops serving — for at most
    /// `removedMemberRounds` rounds (a member that is down learns nothing either way).
    private func removedMembersToKeep(_ list: MemberList, host: RaftGroupHost) -> Set<NodeID> {
        let followers = host.status.followers
        return self.removedKept.withLock { rounds in
            var keep: Set<NodeID> = []
            for (id, index) in list.removed {
                guard let follower = followers.first(where: { $0.node == id }), follower.match < index else {
                    rounds[id] = nil
                    continue
                }
                let kept = rounds[id, default: 0]
                guard kept < Self.removedMemberRounds else { continue }
                rounds[id] = kept + 1
                keep.insert(id)
            }
            return keep
        }
    }

    /// As the member list's leader: proposes the removal of each leaving member that no shard's group counts any
    /// more (as this node's replicas have committed) and that no longer votes for the member list.
    private func removeDepartedMembers(_ list: MemberList) -> [String] {
        let delivered = self.directory.delivered
        var done: [String] = []
        for id in list.leaving {
            let stillCounted = self.shardGroups.contains { group in
                self.service.host(group)?.committedMembership.isMember(id) ?? true
            }
            guard !stillCounted, self.service.host(.members)?.membership.isVoter(id) == false else { continue }
            if let pending = self.removalsProposed.withLock({ $0[id] }), delivered < pending { continue }
            guard let host = self.service.host(.members),
                case .accepted(let index, _) = host.propose(MemberChange.remove(id).encoded())
            else { continue }
            self.removalsProposed.withLock { $0[id] = index }
            done.append("member list: \(id) removed (every shard moved off it)")
        }
        return done
    }

    private static func describe(_ change: RaftConfigurationChange) -> String {
        switch change {
        case .addLearner(let node): "\(node) added as a learner"
        case .addVoter(let node): "\(node) promoted to voter"
        case .demoteVoter(let node): "\(node) demoted to learner"
        case .removeMember(let node): "\(node) removed"
        }
    }
}
