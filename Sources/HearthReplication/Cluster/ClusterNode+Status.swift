import HearthCluster
import HearthCore
import HearthNode
import HearthSystem

extension ClusterNode: ClusterOperations {
    /// What `GET /.cluster` answers and `scripts/cluster status` prints: this node, every member of the member list
    /// (with its membership state, how SWIM sees it and the peer link's state), every shard's group as this node's
    /// replica sees it, and how far the groups are from the placement the member list gives.
    ///
    /// ```
    /// {"cluster": "local-3", "node": "n1", "release": "0.2.0", "ready": true, "notReadyReason": null,
    ///  "shardCount": 16, "groups": 16, "replicationFactor": 3, "shardDepth": 2,
    ///  "members": [{"id": "n1", "membership": "active", "status": "self", "http": "127.0.0.1:9001",
    ///               "peer": "127.0.0.1:9101", "release": "0.2.0"},
    ///              {"id": "n2", "membership": "active", "status": "alive", "http": "127.0.0.1:9002", …,
    ///               "release": "0.1.0", "connected": true, "reconnects": 0, "framesDropped": 0,
    ///               "queuedBytes": 0}, …],
    ///  "removed": ["n5"],
    ///  "rebalancing": {"groups": 17, "settled": 17, "moving": []},
    ///  "shards": [{"shard": 0, "replicas": ["n1", "n2", "n3"], "targetReplicas": ["n1", "n2", "n3"],
    ///              "preferredLeader": "n2", "leader": "n2", "role": "follower", "term": 3, "commit": 41,
    ///              "applied": 41, "applyLag": 0,
    ///              "followers": [{"id": "n3", "match": 41, "lag": 0, "state": "replicate"}]}, …]}
    /// ```
    /// `groups` is how many Raft groups hold the `shardCount` shards (the configuration's `groups`, else one per
    /// shard); the `shards` list has one entry per group, numbered as the group is.
    /// A member's `release` is the one its peer link's latest verified hello announced (0.1.0 for a hello without a
    /// release tag; `null` until its link has connected once), this node's its own: mid-upgrade, the members still
    /// on the old release.
    /// `membership` is `active`, `joining` (not yet in every group) or `leaving` (its replicas are moving off);
    /// `replicas` are the voters this node's replica has committed, `targetReplicas` the placement's;
    /// `rebalancing.moving` lists each group whose committed replica set is not its target yet. `followers` is
    /// reported by the shard's leader only; `applyLag` is how many committed entries this node has yet to show;
    /// `halted` (`{"index": …, "term": …, "reason": …}`) appears when this replica stopped at a committed entry it cannot
    /// apply (`RaftApplyHalt`).
    var status: JSONValue {
        let list = self.members
        let targets = list.targets(shardCount: self.cluster.groupCount)
        let placement = self.placement
        var shards: [JSONValue] = []
        for group in self.database.shardGroups {
            guard let host = self.database.service.host(group) else { continue }
            let shard = Int(group.rawValue)
            let soft = host.softState
            let status = host.status
            let delivered = self.database.log.delivered(shard: shard)
            var entry: [JSONKey: JSONValue] = [
                "shard": .int(Int64(shard)),
                "replicas": .array(host.committedMembership.voters.map { .string($0.name) }),
                "targetReplicas": .array((targets[group]?.voters ?? []).map { .string($0.name) }),
                "preferredLeader": placement.preferredLeaders.indices.contains(shard)
                    ? .string(placement.preferredLeaders[shard].name) : .null,
                "leader": soft.leader.map { .string($0.name) } ?? .null,
                "role": .string("\(soft.role)"),
                "term": .int(Int64(soft.term)),
                "commit": .int(Int64(status.commit)),
                "applied": .int(Int64(delivered)),
                "applyLag": .int(Int64(status.commit > delivered ? status.commit - delivered : 0)),
            ]
            if let halt = host.halt {
                entry["halted"] = .object([
                    "index": .int(Int64(halt.index)), "term": .int(Int64(halt.term)), "reason": .string(halt.reason),
                ])
            }
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
            "release": .string(HearthVersion.release),
            "ready": .bool(self.notReadyReason == nil),
            "notReadyReason": self.notReadyReason.map { .string($0) } ?? .null,
            "shardCount": .int(Int64(self.cluster.shards)),
            "groups": .int(Int64(self.cluster.groupCount)),
            "replicationFactor": .int(Int64(self.cluster.replicationFactor)),
            "shardDepth": .int(Int64(self.cluster.shardDepth)),
            "members": .array(self.memberStatus(list, targets: targets)),
            "removed": .array(list.removed.keys.sorted().map { .string($0.name) }),
            "rebalancing": self.rebalancing(targets),
            "shards": .array(shards),
        ])
    }

    /// Every group whose committed replica set (as this node's replica has it) differs from its target.
    private func rebalancing(_ targets: [RaftGroupID: RaftMembership]) -> JSONValue {
        var moving: [JSONValue] = []
        for (group, target) in targets.sorted(by: { $0.key < $1.key }) {
            guard let current = self.database.service.host(group)?.committedMembership, current != target else {
                continue
            }
            moving.append(
                .object([
                    "group": .string(group == .members ? "members" : "\(group.rawValue)"),
                    "voters": .array(current.voters.map { .string($0.name) }),
                    "learners": .array(current.learners.map { .string($0.name) }),
                    "targetVoters": .array(target.voters.map { .string($0.name) }),
                    "targetLearners": .array(target.learners.map { .string($0.name) }),
                ]))
        }
        return .object([
            "groups": .int(Int64(targets.count)), "settled": .int(Int64(targets.count - moving.count)),
            "moving": .array(moving),
        ])
    }

    /// Every member of the list: this node as itself, the others as SWIM and the peer link see them.
    private func memberStatus(_ list: MemberList, targets: [RaftGroupID: RaftMembership]) -> [JSONValue] {
        let records = Dictionary(self.membership.members.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
        let links = self.transport.statistics
        let service = self.database.service
        return list.members.map { member in
            let node = member.node
            var state = "\(member.status)"
            if member.status == .active,
                targets.keys.contains(where: { service.host($0)?.committedMembership.isMember(member.id) == false })
            {
                state = "joining"
            }
            var entry: [JSONKey: JSONValue] = [
                "id": .string(member.id.name),
                "membership": .string(state),
                "http": .string(Self.address(node.host, node.httpPort)),
                "peer": .string(Self.address(node.host, node.peerPort)),
            ]
            if member.id == self.node {
                entry["status"] = .string("self")
                entry["release"] = .string(HearthVersion.release)
            } else {
                entry["status"] = .string(records[member.id].map { Self.name(of: $0.status) } ?? "unknown")
                let link = links[member.id] ?? PeerLinkStatistics()
                entry["release"] = link.release.map { .string($0.description) } ?? .null
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
        let known = Set(self.members.members.map(\.id))
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

    static func address(_ host: String, _ port: Int) -> String {
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

extension ClusterNode {
    func removeMember(_ id: String) async -> MemberRemovalAnswer {
        let member = NodeID(id)
        if self.members.removed[member] != nil { return .leaving }
        do {
            switch try await self.database.proposeMemberChange(.leave(member)) {
            case .changed, .unchanged:
                self.log.info("cluster.member_leaving", ["member": member.name])
                return .leaving
            case .refused(let reason):
                return .refused(reason)
            }
        } catch .notLeader(let leader?) {
            guard let node = self.members.member(leader)?.node else {
                return .unavailable("The member list's leader \(leader) is not in this node's list yet; retry.")
            }
            return .redirect(http: Self.address(node.host, node.httpPort))
        } catch {
            return .unavailable(error.description)
        }
    }
}
