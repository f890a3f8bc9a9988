extension SWIMInstance {
    /// This node suspects `target` after a failed probe: its record turns `suspect` at its current incarnation,
    /// with this node among the suspecters.
    mutating func suspect(_ target: NodeID, now: Duration) -> [SWIMDirective] {
        guard var member = self.records[target]?.member, !member.status.isDown else { return [] }
        member.status = .suspect(suspectedBy: [self.myself.id])
        return self.merge(member, now: now)
    }

    /// How long a suspicion with `suspecters` independent suspecters lasts before the member is declared dead:
    /// `suspicionTimeoutMax` for one, shrinking linearly to `suspicionTimeoutMin` once `suspicionConfirmations`
    /// more members agree (Lifeguard §IV.B, with a linear instead of a logarithmic decay).
    public func suspicionTimeout(suspecters: Int) -> Duration {
        let confirmations = min(max(suspecters - 1, 0), self.settings.suspicionConfirmations)
        let span = self.settings.suspicionTimeoutMax - self.settings.suspicionTimeoutMin
        return self.settings.suspicionTimeoutMax - span * confirmations / self.settings.suspicionConfirmations
    }

    /// Declares dead every suspect whose suspicion outlived its timeout.
    mutating func expireSuspicions(now: Duration) -> [SWIMDirective] {
        var directives: [SWIMDirective] = []
        for id in self.records.keys.sorted() {
            guard let record = self.records[id], let since = record.suspectedAt,
                case .suspect(let suspectedBy) = record.member.status,
                now - since >= self.suspicionTimeout(suspecters: suspectedBy.count)
            else { continue }
            var dead = record.member
            dead.status = .dead
            directives.append(contentsOf: self.merge(dead, now: now))
        }
        return directives
    }

    /// Forgets tombstones older than `tombstoneTime`.
    mutating func expireTombstones(now: Duration) {
        for id in self.records.keys.sorted() {
            guard let downAt = self.records[id]?.downAt, now - downAt >= self.settings.tombstoneTime else { continue }
            self.records[id] = nil
            self.gossip.remove(id)
        }
    }
}
