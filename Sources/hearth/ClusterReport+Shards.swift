import HearthCluster
import HearthCore

extension ClusterReport {
    /// One shard's row: what its replicas that answered report, and the leader they add up to.
    struct Shard {
        /// What one replica's view says about the shard.
        struct Replica {
            let node: String
            let role: String
            let leader: String?
            let term: Int64
            let commit: Int64
            /// Committed entries this replica has yet to apply (and show to its clients).
            let applyLag: Int64
            /// How many entries each of its followers lacks, by follower, when it is the leader.
            let followerLags: [String: Int64]?

            /// The largest lag of its followers, when it is the leader.
            var followerLag: Int64? { self.followerLags.map { $0.values.max() ?? 0 } }
        }

        let shard: Int
        /// The replicas placement gives the shard.
        let replicas: [String]
        /// The views of the replicas that answered, in member order.
        let views: [Replica]

        /// The replica that calls itself leader at the highest term any replica knows; `nil` when none does (an
        /// election is running, or the only claimant was deposed, or no replica answered).
        var leaderView: Replica? {
            let highest = self.views.map(\.term).max()
            return self.views.filter { $0.role == "leader" && $0.term == highest }.first
        }

        var leader: String? { self.leaderView?.node }
        /// The leader's term, else the highest term a replica reports.
        var term: Int64? { self.leaderView?.term ?? self.views.map(\.term).max() }
        /// The leader's commit index, else the highest a replica reports.
        var commit: Int64? { self.leaderView?.commit ?? self.views.map(\.commit).max() }
        /// How far the leader's slowest follower is behind it.
        var followerLag: Int64? { self.leaderView?.followerLag }

        /// Whether the replicas that answered name different leaders or terms.
        var viewsDiffer: Bool {
            Set(self.views.map { "\($0.leader ?? "-")@\($0.term)" }).count > 1
        }
    }

    /// Every configured shard's group — one per shard unless the configuration groups them — (and any other a member
    /// reports), from the views of the members that answered; a group no replica reports on shows the replicas
    /// placement gives it.
    static func shards(cluster: ClusterConfiguration, members: [Member]) -> [Shard] {
        var reports: [Int: [Shard.Replica]] = [:]
        var replicas: [Int: [String]] = [:]
        for member in members {
            guard case .array(let entries)? = member.view?["shards"] else { continue }
            for entry in entries {
                guard let shard = entry["shard"]?.intValue.map({ Int($0) }) else { continue }
                if case .array(let names)? = entry["replicas"] {
                    replicas[shard] = names.compactMap(\.stringValue)
                }
                var followerLags: [String: Int64]?
                if case .array(let followers)? = entry["followers"] {
                    followerLags = Dictionary(
                        followers.compactMap { follower in
                            guard let id = follower["id"]?.stringValue, let lag = follower["lag"]?.intValue else {
                                return nil
                            }
                            return (id, lag)
                        }
                    ) { max($0, $1) }
                }
                reports[shard, default: []].append(
                    Shard.Replica(
                        node: member.id, role: entry["role"]?.stringValue ?? "unknown",
                        leader: entry["leader"]?.stringValue, term: entry["term"]?.intValue ?? 0,
                        commit: entry["commit"]?.intValue ?? 0, applyLag: entry["applyLag"]?.intValue ?? 0,
                        followerLags: followerLags))
            }
        }
        let placement = ShardPlacement(
            members: cluster.nodeIDs, shardCount: cluster.groupCount, replicationFactor: cluster.replicationFactor)
        let numbers = Set(0..<cluster.groupCount).union(reports.keys).sorted()
        return numbers.map { shard in
            let placed = shard < placement.shardCount ? placement.replicas[shard].map(\.name) : []
            return Shard(shard: shard, replicas: replicas[shard] ?? placed, views: reports[shard] ?? [])
        }
    }
}
