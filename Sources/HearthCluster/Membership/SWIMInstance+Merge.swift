extension SWIMInstance {
    /// Folds one gossiped record into the table (`SWIMMember.merged` decides precedence) and returns the event it
    /// causes, if any. Any change is queued for gossip so it spreads further.
    mutating func merge(_ incoming: SWIMMember, now: Duration) -> [SWIMDirective] {
        var incoming = incoming
        if case .suspect(let suspectedBy) = incoming.status {
            incoming.status = .suspect(suspectedBy: SWIMMember.combine([], suspectedBy, limit: self.maxSuspecters))
        }
        guard incoming.id != self.myself.id else {
            self.refute(incoming)
            return []
        }
        guard let existing = self.records[incoming.id] else {
            return self.add(incoming, now: now)
        }
        guard let merged = existing.member.merged(with: incoming, maxSuspecters: self.maxSuspecters) else {
            return []
        }
        return self.replace(existing, with: merged, now: now)
    }

    /// The most suspecters a suspicion records: the first one plus the confirmations that shorten its timeout.
    var maxSuspecters: Int { self.settings.suspicionConfirmations + 1 }

    private mutating func add(_ member: SWIMMember, now: Duration) -> [SWIMDirective] {
        var record = Record(member: member)
        if member.status.isDown {
            record.downAt = now
            self.records[member.id] = record
            return []
        }
        if member.status.isSuspect {
            record.suspectedAt = now
        }
        self.records[member.id] = record
        self.gossip.enqueue(member.id)
        self.insertIntoProbeOrder(member.id)
        return [.event(.joined(member))]
    }

    private mutating func replace(_ existing: Record, with merged: SWIMMember, now: Duration) -> [SWIMDirective] {
        let previous = existing.member
        var record = existing
        record.member = merged
        let restarted = merged.generation != previous.generation
        if merged.status.isDown {
            record.suspectedAt = nil
            record.downAt = record.downAt ?? now
        } else if merged.status.isSuspect {
            let sameSuspicion = previous.status.isSuspect && !restarted && previous.incarnation == merged.incarnation
            record.suspectedAt = sameSuspicion ? existing.suspectedAt : now
            record.downAt = nil
        } else {
            record.suspectedAt = nil
            record.downAt = nil
        }
        self.records[merged.id] = record
        self.gossip.enqueue(merged.id)
        if previous.status.isDown && !merged.status.isDown {
            self.insertIntoProbeOrder(merged.id)
        }
        switch merged.status {
        case .dead: return previous.status == .dead ? [] : [.event(.dead(merged))]
        case .left: return previous.status == .left ? [] : [.event(.left(merged))]
        case _ where restarted: return [.event(.rejoined(merged))]
        case .suspect: return previous.status.isSuspect ? [] : [.event(.suspect(merged))]
        case .alive: return previous.status.isSuspect ? [.event(.alive(merged))] : []
        }
    }

    /// Gossip about this node itself: a suspicion at our incarnation or later is refuted by raising the
    /// incarnation; being declared `dead` (or `left`, which we did not do) while alive is answered by starting a new
    /// generation, since those statuses are final, and so is a suspicion at the highest incarnation, which no
    /// incarnation can outbid (the number comes from a peer). Records of other generations are old runs and change
    /// nothing.
    private mutating func refute(_ incoming: SWIMMember) {
        guard incoming.generation == self.myself.generation, self.myself.status == .alive else { return }
        switch incoming.status {
        case .alive:
            return
        case .suspect:
            guard incoming.incarnation >= self.myself.incarnation else { return }
            let (raised, overflow) = incoming.incarnation.addingReportingOverflow(1)
            guard overflow else {
                self.myself.incarnation = raised
                break
            }
            self.myself.generation += 1
            self.myself.incarnation = 0
        case .dead, .left:
            self.myself.generation += 1
            self.myself.incarnation = 0
        }
        self.gossip.enqueue(self.myself.id)
    }
}
