/// The report as `hearth cluster status` prints it: a summary line, a member table, a shard table, and the
/// problems that make the cluster unhealthy.
extension ClusterReport {
    var text: String {
        let verdict =
            self.isHealthy
            ? "healthy" : "NOT HEALTHY (\(self.problems.count) problem\(self.problems.count == 1 ? "" : "s"))"
        var lines = [
            "cluster \(self.name): \(self.members.count) members, \(self.shardCount) shards"
                + (self.groupCount == self.shardCount
                    ? ", " : " in \(self.groupCount) Raft group\(self.groupCount == 1 ? "" : "s"), ")
                + "\(self.replicationFactor) replicas each: \(verdict)", "",
        ]
        var members = TextTable(
            "MEMBER", "HTTP", "HEALTH", "RELEASE", "MEMBERSHIP", "SWIM (AS OTHERS SEE IT)", "LINKS")
        for member in self.members {
            members.add(
                member.id, member.http, member.state.rawValue, member.release ?? "-", member.membership,
                Self.swim(member), Self.links(member))
        }
        lines += members.lines + [""]
        if let rebalancing = self.rebalancing, rebalancing.settled < rebalancing.groups {
            lines += [
                "rebalancing: \(rebalancing.settled) of \(rebalancing.groups) groups have their target replicas", "",
            ]
        }
        var shards = TextTable("SHARD", "REPLICAS", "LEADER", "TERM", "COMMIT", "LAG", "APPLY LAG", "NOTE")
        for shard in self.shards {
            shards.add(
                "\(shard.shard)", shard.replicas.joined(separator: ","), shard.leader ?? "-",
                shard.term.map { "\($0)" } ?? "-", shard.commit.map { "\($0)" } ?? "-",
                shard.followerLag.map { "\($0)" } ?? "-",
                shard.views.isEmpty ? "-" : shard.views.map { "\($0.node):\($0.applyLag)" }.joined(separator: " "),
                Self.note(shard))
        }
        lines += shards.lines
        if !self.problems.isEmpty {
            lines += ["", "problems:"] + self.problems.map { "  - \($0)" }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `alive` when every observer agrees, else each status with its observers: `alive (n1), suspect (n3)`.
    private static func swim(_ member: Member) -> String {
        guard !member.swim.isEmpty else { return "-" }
        let statuses = member.swim.map(\.status)
        if Set(statuses).count == 1 { return statuses[0] }
        return member.swim.map { "\($0.status) (\($0.observer))" }.joined(separator: ", ")
    }

    /// `n2 ok, n3 partitioned`, as the member itself reports its links.
    private static func links(_ member: Member) -> String {
        guard !member.links.isEmpty else { return "-" }
        return member.links.map { link in
            let state = link.isPartitioned ? "partitioned" : link.isConnected ? "ok" : "disconnected"
            return "\(link.peer) \(state)"
        }.joined(separator: ", ")
    }

    private static func note(_ shard: Shard) -> String {
        if shard.views.isEmpty { return "no leader: no replica answers" }
        var notes: [String] = []
        if shard.leader == nil { notes.append("no leader") }
        if shard.viewsDiffer {
            var claims: [(claim: String, nodes: [String])] = []
            for view in shard.views {
                let claim = "leader \(view.leader ?? "none") in term \(view.term)"
                if let index = claims.firstIndex(where: { $0.claim == claim }) {
                    claims[index].nodes.append(view.node)
                } else {
                    claims.append((claim, [view.node]))
                }
            }
            notes.append(
                "views differ: "
                    + claims.map { "\($0.nodes.joined(separator: ",")) see \($0.claim)" }.joined(separator: "; "))
        }
        return notes.joined(separator: "; ")
    }
}
