import HearthCluster

extension ReplicatedDatabase {
    /// Hands the leadership of each shard this node leads to the shard's preferred leader (the placement spreads
    /// those evenly over the nodes), when that node is a voter, is reachable, and holds the whole log — so after
    /// elections leave several shards on one node, the load spreads out again. A transfer pauses the shard's writes
    /// for one round trip; shards where this node is the preferred leader, or whose preferred leader lags, stay.
    /// - Parameter reachable: whether a peer can be talked to now.
    /// - Returns: the shards whose leadership is being handed over.
    @discardableResult
    func balanceLeaders(preferred: [NodeID], reachable: (NodeID) -> Bool) -> [Int] {
        var moved: [Int] = []
        for group in self.service.groups {
            let shard = Int(group.rawValue)
            guard preferred.indices.contains(shard), let host = self.service.host(group) else { continue }
            let target = preferred[shard]
            guard host.softState.role == .leader, target != self.node, reachable(target), !host.isTransferring,
                self.log.acceptsAppends(shard: shard)
            else { continue }
            let status = host.status
            guard
                status.followers.contains(where: {
                    $0.node == target && $0.isVoter && $0.lag == 0 && $0.state == .replicate
                })
            else { continue }
            do {
                try host.withNode { node throws(RaftError) in try node.transferLeadership(to: target) }
                moved.append(shard)
            } catch {
                continue
            }
        }
        return moved
    }
}
