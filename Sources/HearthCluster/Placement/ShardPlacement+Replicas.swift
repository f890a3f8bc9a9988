/// Choosing each shard's replica set: rendezvous weights taken greedily under a per-node cap, then evened out.
extension ShardPlacement {
    static func assignReplicas(members: [NodeID], shardCount: Int, replicationFactor: Int) -> [[NodeID]] {
        let nodeCount = members.count
        let capacity = (shardCount * replicationFactor + nodeCount - 1) / nodeCount
        var pairs: [(weight: UInt64, node: Int, shard: Int)] = []
        pairs.reserveCapacity(shardCount * nodeCount)
        for shard in 0..<shardCount {
            for (node, member) in members.enumerated() {
                pairs.append((RendezvousWeight.of(member, shard: shard), node, shard))
            }
        }
        pairs.sort { $0.weight != $1.weight ? $0.weight > $1.weight : ($0.node, $0.shard) < ($1.node, $1.shard) }
        var replicas = Array(repeating: [Int](), count: shardCount)
        var load = Array(repeating: 0, count: nodeCount)
        for pair in pairs where replicas[pair.shard].count < replicationFactor && load[pair.node] < capacity {
            replicas[pair.shard].append(pair.node)
            load[pair.node] += 1
        }
        for shard in 0..<shardCount {
            while replicas[shard].count < replicationFactor {
                let candidates = (0..<nodeCount).filter { !replicas[shard].contains($0) }
                guard let best = Self.heaviest(candidates, shard: shard, members: members) else {
                    preconditionFailure("shard \(shard) has \(replicas[shard]) of \(nodeCount) members")
                }
                replicas[shard].append(best)
                load[best] += 1
            }
        }
        Self.evenOut(&replicas, load: &load, members: members)
        return replicas.map { $0.map { members[$0] } }
    }

    /// Moves single replicas from the most to the least loaded node until loads differ by at most one; each move
    /// takes the shard where the receiving node weighs most. Terminates: every move shrinks the sum of squared loads.
    private static func evenOut(_ replicas: inout [[Int]], load: inout [Int], members: [NodeID]) {
        while true {
            let indices = Array(load.indices)
            guard let most = indices.max(by: { (load[$0], $1) < (load[$1], $0) }),
                let least = indices.min(by: { (load[$0], $0) < (load[$1], $1) }),
                load[most] - load[least] >= 2
            else { return }
            let shards = replicas.indices.filter { replicas[$0].contains(most) && !replicas[$0].contains(least) }
            let weight = { (shard: Int) in RendezvousWeight.of(members[least], shard: shard) }
            guard let shard = shards.max(by: { (weight($0), $1) < (weight($1), $0) }),
                let slot = replicas[shard].firstIndex(of: most)
            else {
                preconditionFailure(
                    "node \(most) holds \(load[most]) replicas, \(least) \(load[least]), yet no shard moves")
            }
            replicas[shard][slot] = least
            load[most] -= 1
            load[least] += 1
        }
    }

    private static func heaviest(_ nodes: [Int], shard: Int, members: [NodeID]) -> Int? {
        nodes.min { Self.ranks(members[$0], above: members[$1], shard: shard, purpose: .replica) }
    }
}
