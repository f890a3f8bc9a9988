/// Whether the cluster has caught up, as `hearth cluster wait --caught-up` and a rolling upgrade need it: healthy,
/// and a lag figure from every replica of every shard, none above the bound.
extension ClusterReport {
    /// Everything that keeps the cluster from being caught up within `maximumLag` entries, one sentence each; empty
    /// when it is. On top of `problems` (a member down, failing or not ready; a shard without a leader): a replica
    /// its shard's leader reports no lag for (it has never answered since the leader took over), a replica that
    /// lacks more than `maximumLag` entries, and a replica that did not report on the shard or has more than
    /// `maximumLag` committed entries yet to apply. A figure that is missing never counts as small.
    func lagProblems(maximumLag: Int64) -> [String] {
        var lagging: [String] = []
        for shard in self.shards {
            guard let leader = shard.leaderView else { continue }
            let followers = leader.followerLags ?? [:]
            for replica in shard.replicas {
                if replica != leader.node {
                    if let lag = followers[replica] {
                        if lag > maximumLag {
                            lagging.append(
                                "shard \(shard.shard): \(replica) lacks \(lag) entries (more than \(maximumLag))")
                        }
                    } else {
                        lagging.append("shard \(shard.shard): its leader \(leader.node) reports no lag for \(replica)")
                    }
                }
                if let view = shard.views.first(where: { $0.node == replica }) {
                    if view.applyLag > maximumLag {
                        lagging.append(
                            "shard \(shard.shard): \(replica) has \(view.applyLag) committed entries to apply "
                                + "(more than \(maximumLag))")
                    }
                } else {
                    lagging.append("shard \(shard.shard): \(replica) did not report on it")
                }
            }
        }
        return self.problems + lagging
    }
}
