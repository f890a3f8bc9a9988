extension SWIMInstance {
    /// How many times each update is piggybacked: `gossipMultiplier × ⌈log₂(n + 1)⌉` for `n` live members.
    var gossipBudget: Int {
        let size = self.clusterSize
        return self.settings.gossipMultiplier * (size.bitWidth - size.leadingZeroBitCount)
    }

    /// The records to piggyback on a message to `target`, at most `maxGossipPerMessage`. A target this node holds
    /// as suspect or down hears that first (Lifeguard's buddy system), so it can refute at once.
    mutating func makeGossip(for target: NodeID?) -> [SWIMMember] {
        var gossip: [SWIMMember] = []
        var excluded: NodeID?
        if let target, let record = self.records[target], record.member.status != .alive {
            gossip.append(record.member)
            excluded = target
        }
        let limit = self.settings.maxGossipPerMessage - gossip.count
        for id in self.gossip.take(limit: limit, excluding: excluded, budget: self.gossipBudget) {
            if let member = self.member(id) {
                gossip.append(member)
            }
        }
        return gossip
    }

    /// Every record this node holds, its own first: what a joining node receives in its first ack.
    var fullState: [SWIMMember] {
        [self.myself] + self.members
    }

    /// Merges every record of `gossip`, returning the events it caused.
    mutating func merge(_ gossip: [SWIMMember], now: Duration) -> [SWIMDirective] {
        var directives: [SWIMDirective] = []
        for member in gossip {
            directives.append(contentsOf: self.merge(member, now: now))
        }
        return directives
    }
}
