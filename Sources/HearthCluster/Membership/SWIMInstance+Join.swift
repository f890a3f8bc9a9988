extension SWIMInstance {
    /// Starts joining a cluster through `seeds` (addresses only: their names are learned in the transport's
    /// handshake). Returns a `.connect` per seed; each handshake then comes back through `onHandshake`, which sends
    /// a ping asking for the full member list. While no other member is known, every tick connects again.
    public mutating func join(seeds: [SWIMAddress], now: Duration) -> [SWIMDirective] {
        var directives: [SWIMDirective] = []
        self.seeds = seeds.filter { $0 != self.myself.address }
        directives.append(contentsOf: self.seeds.map { .connect($0) })
        return directives
    }

    /// The peer transport finished a handshake with member `peer` (after a `.connect`, or when a peer dialed in).
    /// A peer this node does not know as reachable is pinged at once, asking for every record it holds.
    public mutating func onHandshake(peer: NodeID, now: Duration) -> [SWIMDirective] {
        var directives: [SWIMDirective] = []
        guard peer != self.myself.id, self.myself.status == .alive else { return directives }
        if let record = self.records[peer], !record.member.status.isDown {
            return directives
        }
        directives.append(contentsOf: self.startProbe(of: peer, isJoin: true))
        return directives
    }

    /// Leaves the cluster gracefully: this node's record turns `left` and goes straight to every reachable member
    /// (who gossip it on), instead of waiting to be suspected and declared dead. The instance then stops probing;
    /// a later run of the process rejoins with a new generation.
    public mutating func leave(now: Duration) -> [SWIMDirective] {
        var directives: [SWIMDirective] = []
        guard self.myself.status == .alive else { return directives }
        self.myself.status = .left
        self.probes.removeAll()
        for member in self.reachableMembers {
            let ping = SWIMMessage.Ping(origin: self.myself, sequence: self.takeSequence(), gossip: [self.myself])
            directives.append(.send(.ping(ping), to: member.id))
        }
        return directives
    }
}
