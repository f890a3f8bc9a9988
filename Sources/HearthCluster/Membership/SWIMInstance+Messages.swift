extension SWIMInstance {
    /// Handles any message from member `from` (the name the peer transport's handshake established).
    public mutating func onMessage(_ message: SWIMMessage, from: NodeID, now: Duration) -> [SWIMDirective] {
        switch message {
        case .ping(let ping): self.onPing(ping, from: from, now: now)
        case .pingRequest(let request): self.onPingRequest(request, from: from, now: now)
        case .ack(let ack): self.onAck(ack, from: from, now: now)
        case .nack(let nack): self.onNack(nack, from: from, now: now)
        }
    }

    /// Merges the sender's record and gossip, then acks with this node's own record. A sender that asks for it, or
    /// that this node did not know, gets every record this node holds, so a joining node learns the whole cluster
    /// from one ack.
    public mutating func onPing(_ ping: SWIMMessage.Ping, from: NodeID, now: Duration) -> [SWIMDirective] {
        var directives: [SWIMDirective] = []
        let knewSender = self.records[ping.origin.id].map { !$0.member.status.isDown } ?? false
        directives.append(contentsOf: self.merge(ping.origin, now: now))
        directives.append(contentsOf: self.merge(ping.gossip, now: now))
        let gossip = ping.wantsFullState || !knewSender ? self.fullState : self.makeGossip(for: from)
        let ack = SWIMMessage.Ack(target: self.myself, sequence: ping.sequence, gossip: gossip)
        directives.append(.send(.ack(ack), to: from))
        return directives
    }

    /// Probes `request.target` on behalf of the sender; its ack is relayed back, or a nack if it times out.
    public mutating func onPingRequest(
        _ request: SWIMMessage.PingRequest,
        from: NodeID,
        now: Duration
    ) -> [SWIMDirective] {
        var directives: [SWIMDirective] = []
        directives.append(contentsOf: self.merge(request.origin, now: now))
        directives.append(contentsOf: self.merge(request.gossip, now: now))
        guard self.myself.status == .alive, request.target != self.myself.id else { return directives }
        let sequence = self.takeSequence()
        self.probes[sequence] = Probe(
            target: request.target,
            step: 0,
            relay: Relay(origin: from, sequence: request.sequence)
        )
        let ping = SWIMMessage.Ping(
            origin: self.myself, sequence: sequence, gossip: self.makeGossip(for: request.target))
        directives.append(.send(.ping(ping), to: request.target))
        directives.append(.startTimer(SWIMTimer(sequence: sequence, step: 0), after: self.settings.pingTimeout))
        return directives
    }

    /// An ack proves its target alive at the incarnation it carries (a suspicion at that incarnation stands until
    /// the target refutes it). The probe it answers is done; one run for another member is relayed to it.
    public mutating func onAck(_ ack: SWIMMessage.Ack, from: NodeID, now: Duration) -> [SWIMDirective] {
        var directives: [SWIMDirective] = []
        directives.append(contentsOf: self.merge(ack.target, now: now))
        directives.append(contentsOf: self.merge(ack.gossip, now: now))
        guard let probe = self.probes[ack.sequence], probe.target == ack.target.id else { return directives }
        self.probes[ack.sequence] = nil
        if let relay = probe.relay {
            let relayed = SWIMMessage.Ack(
                target: ack.target,
                sequence: relay.sequence,
                gossip: self.makeGossip(for: relay.origin)
            )
            directives.append(.send(.ack(relayed), to: relay.origin))
        }
        return directives
    }

    /// A relay could not reach the target either. The probe keeps waiting for the other relays until its timer;
    /// the nack only shows the relay itself is alive (Lifeguard uses nacks for local health, left out here).
    public mutating func onNack(_ nack: SWIMMessage.Nack, from: NodeID, now: Duration) -> [SWIMDirective] {
        []
    }
}
