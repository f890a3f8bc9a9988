import HearthCore

/// The report as `hearth cluster status --json` prints it: the verdict and the merged rows, with every member's
/// `/.cluster` document as it was received (`view`, `null` for a member that did not answer one).
///
/// ```
/// {"cluster": "local-3", "healthy": true, "problems": [],
///  "members": [{"id": "n1", "http": "127.0.0.1:9001", "health": "up", "release": "0.2.0", "reason": null,
///               "swim": {"n2": "alive", "n3": "alive"}, "view": {…}}, …],
///  "shards": [{"shard": 0, "replicas": ["n1", "n2", "n3"], "leader": "n2", "term": 3, "commit": 41, "lag": 0,
///              "applyLag": {"n1": 0, "n2": 0, "n3": 0}, "viewsDiffer": false}, …]}
/// ```
extension ClusterReport {
    var json: JSONValue {
        let members = self.members.map { member -> JSONValue in
            .object([
                "id": .string(member.id),
                "http": .string(member.http),
                "health": .string(member.state.rawValue),
                "membership": .string(member.membership),
                "release": member.release.map { .string($0) } ?? .null,
                "reason": member.reason.map { .string($0) } ?? .null,
                "swim": .object(Dictionary(member.swim.map { (JSONKey($0.observer), .string($0.status)) }) { $1 }),
                "view": member.view ?? .null,
            ])
        }
        let shards = self.shards.map { shard -> JSONValue in
            .object([
                "shard": .int(Int64(shard.shard)),
                "replicas": .array(shard.replicas.map { .string($0) }),
                "leader": shard.leader.map { .string($0) } ?? .null,
                "term": shard.term.map { .int($0) } ?? .null,
                "commit": shard.commit.map { .int($0) } ?? .null,
                "lag": shard.followerLag.map { .int($0) } ?? .null,
                "applyLag": .object(Dictionary(shard.views.map { (JSONKey($0.node), .int($0.applyLag)) }) { $1 }),
                "viewsDiffer": .bool(shard.viewsDiffer),
            ])
        }
        return .object([
            "cluster": .string(self.name),
            "healthy": .bool(self.isHealthy),
            "problems": .array(self.problems.map { .string($0) }),
            "members": .array(members),
            "rebalancing": self.rebalancing.map {
                .object(["groups": .int($0.groups), "settled": .int($0.settled)])
            } ?? .null,
            "shards": .array(shards),
        ])
    }
}
