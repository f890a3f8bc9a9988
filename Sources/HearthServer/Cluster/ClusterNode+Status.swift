import HearthCluster
import HearthCore

extension ClusterNode: ClusterOperations {
    /// What `GET /.cluster` answers and `scripts/cluster status` prints: this node, every member as membership sees
    /// it (with the peer link's state), and every shard's group as this node's replica sees it.
    ///
    /// ```
    /// {"cluster": "local-3", "node": "n1", "ready": true, "notReadyReason": null,
    ///  "members": [{"id": "n1", "status": "alive", "http": "127.0.0.1:9001", "peer": "127.0.0.1:9101",
    ///               "connected": true, "reconnects": 0, "framesDropped": 0, "queuedBytes": 0}, …],
    ///  "shards": [{"shard": 0, "replicas": ["n1", "n2", "n3"], "preferredLeader": "n2", "leader": "n2",
    ///              "role": "follower", "term": 3, "commit": 41, "applied": 41, "applyLag": 0,
    ///              "followers": [{"id": "n3", "match": 41, "lag": 0, "state": "replicate"}]}, …]}
    /// ```
    /// `followers` is reported by the shard's leader only; `applyLag` is how many committed entries this node has
    /// yet to show.
    var status: JSONValue {
        var shards: [JSONValue] = []
        for group in self.database.shardGroups {
            guard let host = self.database.service.host(group) else { continue }
            let shard = Int(group.rawValue)
            let soft = host.softState
            let status = host.status
            let delivered = self.database.log.delivered(shard: shard)
            var entry: [String: JSONValue] = [
                "shard": .int(Int64(shard)),
                "replicas": .array(self.placement.replicas[shard].map { .string($0.name) }),
                "preferredLeader": .string(self.placement.preferredLeaders[shard].name),
                "leader": soft.leader.map { .string($0.name) } ?? .null,
                "role": .string("\(soft.role)"),
                "term": .int(Int64(soft.term)),
                "commit": .int(Int64(status.commit)),
                "applied": .int(Int64(delivered)),
                "applyLag": .int(Int64(status.commit > delivered ? status.commit - delivered : 0)),
            ]
            if soft.role == .leader {
                entry["followers"] = .array(
                    status.followers.map { follower in
                        .object([
                            "id": .string(follower.node.name), "voter": .bool(follower.isVoter),
                            "match": .int(Int64(follower.match)), "lag": .int(Int64(follower.lag)),
                            "state": .string("\(follower.state)"),
                        ])
                    })
            }
            shards.append(.object(entry))
        }
        return .object([
            "cluster": .string(self.cluster.name),
            "node": .string(self.node.name),
            "ready": .bool(self.notReadyReason == nil),
            "notReadyReason": self.notReadyReason.map { .string($0) } ?? .null,
            "members": .array(self.memberStatus),
            "shards": .array(shards),
        ])
    }

    /// Every configured member: this node as itself, the others as SWIM and the peer link see them.
    private var memberStatus: [JSONValue] {
        let records = Dictionary(self.membership.members.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
        let links = self.transport.statistics
        return self.cluster.nodes.map { member in
            var entry: [String: JSONValue] = [
                "id": .string(member.id.name),
                "http": .string(Self.address(member.host, member.httpPort)),
                "peer": .string(Self.address(member.host, member.peerPort)),
            ]
            if member.id == self.node {
                entry["status"] = .string("self")
            } else {
                entry["status"] = .string(records[member.id].map { Self.name(of: $0.status) } ?? "unknown")
                let link = links[member.id] ?? PeerLinkStatistics()
                entry["connected"] = .bool(link.isConnected)
                entry["reconnects"] = .int(Int64(link.reconnects))
                entry["framesDropped"] = .int(Int64(link.framesDropped))
                entry["queuedBytes"] = .int(Int64(link.queuedBytes))
                entry["partitioned"] = .bool(self.transport.partitionedPeers.contains(member.id))
            }
            return .object(entry)
        }
    }

    func partition(from peers: [String]) throws(ClusterNodeError) {
        let known = Set(self.cluster.nodeIDs)
        let named = Set(peers.map { NodeID($0) })
        guard named.isSubset(of: known), !named.contains(self.node) else {
            throw ClusterNodeError(
                "A partition names other members of cluster \(self.cluster.name) ("
                    + known.filter { $0 != self.node }.sorted().map(\.name).joined(separator: ", ")
                    + "), not \(peers.joined(separator: ", ")).")
        }
        self.transport.partition(from: named)
    }

    func heal() {
        self.transport.heal()
    }

    private static func address(_ host: String, _ port: Int) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    private static func name(of status: SWIMStatus) -> String {
        switch status {
        case .alive: "alive"
        case .suspect: "suspect"
        case .dead: "dead"
        case .left: "left"
        }
    }
}
