import HearthCluster
import HearthDatabase

/// The shell of `LeaderBalance` on the database's side: what it needs to know of each shard, and its actions on the
/// shards' Raft groups and this node's compare-and-set gate.
extension ReplicatedDatabase {
    /// Each shard with a group here, as the balance needs it: its preferred leader (`preferred[shard]`), whether this
    /// node leads it and may hand it over, whether the preferred leader holds its whole log, and the compare-and-sets
    /// running at its locations.
    func balanceShards(preferred: [NodeID]) -> [LeaderBalance.Shard] {
        self.service.groups.compactMap { group in
            let shard = Int(group.rawValue)
            guard preferred.indices.contains(shard), let host = self.service.host(group) else { return nil }
            let target = preferred[shard]
            let isLeader = host.softState.role == .leader
            let caughtUp =
                isLeader
                && host.status.followers.contains {
                    $0.node == target && $0.isVoter && $0.lag == 0 && $0.state == .replicate && $0.answeredRecently
                }
            return LeaderBalance.Shard(
                shard: shard, preferred: target, isLeader: isLeader,
                canHandOver: isLeader && !host.isTransferring && self.log.acceptsAppends(shard: shard),
                preferredCaughtUp: caughtUp, running: self.conditionalWriteTurns.local.runningCount(shard: shard))
        }
    }

    /// Carries out the balance's actions: pauses and resumes shards' locations at this node's gate, and begins the
    /// transfers (one that the Raft node refuses ends its handover at once).
    /// - Returns: the shards whose transfer began.
    func carryOut(_ actions: [LeaderBalance.Action], balance: inout LeaderBalance) -> [Int] {
        var moved: [Int] = []
        var pending = actions
        while !pending.isEmpty {
            let action = pending.removeFirst()
            switch action {
            case .pause(let shard):
                self.conditionalWriteTurns.local.pause(shard: shard)
            case .resume(let shard):
                self.conditionalWriteTurns.local.resume(shard: shard)
            case .transfer(let shard, let target):
                guard let host = self.service.host(RaftGroupID(UInt32(shard))) else {
                    pending += balance.transferFailed(shard: shard)
                    continue
                }
                do {
                    try host.withNode { node throws(RaftError) in try node.transferLeadership(to: target) }
                    moved.append(shard)
                } catch {
                    pending += balance.transferFailed(shard: shard)
                }
            }
        }
        return moved
    }
}
