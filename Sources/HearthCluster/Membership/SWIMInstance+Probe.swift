extension SWIMInstance {
    /// Call every `settings.probeInterval`. Expires suspicions and tombstones, asks to reconnect to the seeds while
    /// no other member is known, probes the next member (a ping, with a timer for its ack) and, every
    /// `reconnectInterval`, pings one dead member in case a partition healed.
    public mutating func onPeriodicTick(now: Duration) -> [SWIMDirective] {
        var directives: [SWIMDirective] = []
        guard self.myself.status == .alive else { return directives }
        directives.append(contentsOf: self.expireSuspicions(now: now))
        self.expireTombstones(now: now)
        if !self.records.values.contains(where: { !$0.member.status.isDown }) {
            directives.append(contentsOf: self.seeds.map { .connect($0) })
        }
        if let target = self.nextProbeTarget() {
            directives.append(contentsOf: self.startProbe(of: target, isJoin: false))
        }
        directives.append(contentsOf: self.reconnect(now: now))
        return directives
    }

    /// Pings a random `dead` member (not one that left) once per `reconnectInterval`. The ping carries its dead
    /// record, so if it is alive after all it starts a new generation, and its ack brings both sides' views.
    private mutating func reconnect(now: Duration) -> [SWIMDirective] {
        guard let last = self.lastReconnect else {
            self.lastReconnect = now
            return []
        }
        guard now - last >= self.settings.reconnectInterval else { return [] }
        self.lastReconnect = now
        let dead = self.members.filter { $0.status == .dead }.map(\.id)
        guard let target = dead.randomElement(using: &self.random) else { return [] }
        return self.startProbe(of: target, isJoin: true)
    }

    /// Call when a timer from `.startTimer` fires. A direct ping that went unanswered turns into ping requests to
    /// `indirectProbeCount` members; an indirect probe that went unanswered raises a suspicion; a probe run for
    /// another member answers it with a nack. Timers of probes already answered are ignored.
    public mutating func onTimeout(_ timer: SWIMTimer, now: Duration) -> [SWIMDirective] {
        var directives: [SWIMDirective] = []
        guard var probe = self.probes[timer.sequence], probe.step == timer.step else { return directives }
        if let relay = probe.relay {
            self.probes[timer.sequence] = nil
            let nack = SWIMMessage.Nack(target: probe.target, sequence: relay.sequence)
            directives.append(.send(.nack(nack), to: relay.origin))
            return directives
        }
        guard probe.step == 0, !probe.isJoin else {
            self.probes[timer.sequence] = nil
            if !probe.isJoin {
                directives.append(contentsOf: self.suspect(probe.target, now: now))
            }
            return directives
        }
        let relays = self.chooseRelays(excluding: probe.target)
        guard !relays.isEmpty else {
            self.probes[timer.sequence] = nil
            directives.append(contentsOf: self.suspect(probe.target, now: now))
            return directives
        }
        probe.step = 1
        self.probes[timer.sequence] = probe
        for relay in relays {
            let request = SWIMMessage.PingRequest(
                origin: self.myself,
                target: probe.target,
                sequence: timer.sequence,
                gossip: self.makeGossip(for: relay)
            )
            directives.append(.send(.pingRequest(request), to: relay))
        }
        directives.append(
            .startTimer(SWIMTimer(sequence: timer.sequence, step: 1), after: self.settings.pingRequestTimeout)
        )
        return directives
    }

    /// Sends a ping to `target` and starts the timer for its ack.
    mutating func startProbe(of target: NodeID, isJoin: Bool) -> [SWIMDirective] {
        let sequence = self.takeSequence()
        self.probes[sequence] = Probe(target: target, step: 0, isJoin: isJoin)
        let ping = SWIMMessage.Ping(
            origin: self.myself,
            sequence: sequence,
            wantsFullState: isJoin,
            gossip: self.makeGossip(for: target)
        )
        return [
            .send(.ping(ping), to: target),
            .startTimer(SWIMTimer(sequence: sequence, step: 0), after: self.settings.pingTimeout),
        ]
    }

    /// The next member to probe; when a round ends the order is reshuffled (SWIM §4.3), so every live member is
    /// probed once per round and a failed one is found within one round.
    mutating func nextProbeTarget() -> NodeID? {
        for _ in 0..<2 {
            while self.probeIndex < self.probeOrder.count {
                let candidate = self.probeOrder[self.probeIndex]
                self.probeIndex += 1
                if let record = self.records[candidate], !record.member.status.isDown {
                    return candidate
                }
            }
            self.probeOrder = self.reachableMembers.map(\.id)
            self.probeOrder.shuffle(using: &self.random)
            self.probeIndex = 0
        }
        return nil
    }

    /// Puts a new (or returning) member at a random place among those not yet probed this round.
    mutating func insertIntoProbeOrder(_ id: NodeID) {
        guard !self.probeOrder[self.probeIndex...].contains(id) else { return }
        let position = Int.random(in: self.probeIndex...self.probeOrder.count, using: &self.random)
        self.probeOrder.insert(id, at: position)
    }

    /// Up to `indirectProbeCount` random alive members other than `target`.
    private mutating func chooseRelays(excluding target: NodeID) -> [NodeID] {
        var candidates = self.members.filter { $0.status == .alive && $0.id != target }.map(\.id)
        candidates.shuffle(using: &self.random)
        return Array(candidates.prefix(self.settings.indirectProbeCount))
    }
}
