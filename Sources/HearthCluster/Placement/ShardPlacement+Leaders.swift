/// Choosing each shard's preferred leader: the replica of highest leader weight, then rebalanced along augmenting
/// paths so that leader counts differ by at most one wherever the replica sets allow it.
extension ShardPlacement {
    static func assignLeaders(members: [NodeID], replicas: [[NodeID]]) -> [NodeID] {
        var leaders: [NodeID] = replicas.indices.map { shard in
            guard let first = replicas[shard].min(by: { Self.ranks($0, above: $1, shard: shard, purpose: .leader) })
            else { preconditionFailure("shard \(shard) has no replicas to lead it") }
            return first
        }
        var load = Dictionary(uniqueKeysWithValues: members.map { ($0, 0) })
        for leader in leaders { load[leader, default: 0] += 1 }
        while Self.shiftOneLeadership(&leaders, load: &load, members: members, replicas: replicas) {}
        return leaders
    }

    /// Finds, for the least loaded node that can be helped, a chain of shards along which leadership can shift by
    /// one so that a node leading at least two more shards gives one up; returns whether it shifted. Every shift
    /// shrinks the sum of squared loads, so repeated calls terminate.
    private static func shiftOneLeadership(
        _ leaders: inout [NodeID],
        load: inout [NodeID: Int],
        members: [NodeID],
        replicas: [[NodeID]]
    ) -> Bool {
        let byLoad = members.sorted { (load[$0, default: 0], $0) < (load[$1, default: 0], $1) }
        for receiver in byLoad {
            // Breadth-first from the receiver: `via[node]` is the shard `node` leads and the next node in the chain.
            var via: [NodeID: (next: NodeID, shard: Int)] = [:]
            var visited: Set<NodeID> = [receiver]
            var frontier = [receiver]
            while !frontier.isEmpty {
                var nextFrontier: [NodeID] = []
                for node in frontier {
                    for shard in replicas.indices where replicas[shard].contains(node) {
                        let leader = leaders[shard]
                        guard !visited.contains(leader) else { continue }
                        visited.insert(leader)
                        via[leader] = (node, shard)
                        if load[leader, default: 0] >= load[receiver, default: 0] + 2 {
                            Self.shift(from: leader, along: via, &leaders)
                            load[leader, default: 0] -= 1
                            load[receiver, default: 0] += 1
                            return true
                        }
                        nextFrontier.append(leader)
                    }
                }
                frontier = nextFrontier
            }
        }
        return false
    }

    private static func shift(
        from giver: NodeID, along via: [NodeID: (next: NodeID, shard: Int)], _ leaders: inout [NodeID]
    ) {
        var node = giver
        while let step = via[node] {
            leaders[step.shard] = step.next
            node = step.next
        }
    }
}
