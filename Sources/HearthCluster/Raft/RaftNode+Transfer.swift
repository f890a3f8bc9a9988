extension RaftNode {
    /// Hands leadership to `target` (thesis §3.10): the leader stops accepting proposals, brings `target` up to
    /// date, then tells it to campaign at once. Abandoned if it does not finish within an election timeout.
    public mutating func transferLeadership(to target: NodeID) throws(RaftError) {
        guard self.role == .leader else { throw .notLeader(leaderHint: self.leader) }
        guard target != self.id else { return }
        guard self.membership.isVoter(target) else { throw .unknownMember(target) }
        guard self.transferee != target else { return }
        self.transferee = target
        self.electionElapsed = 0
        if self.progress[target]?.match == self.log.lastIndex {
            self.send(.timeoutNow, to: target)
        } else {
            self.sendAppend(to: target, sendIfEmpty: true)
        }
    }

    /// Tells the leader that messages to `peer` were lost (its connection failed): it stops pipelining to it and
    /// probes instead.
    public mutating func reportUnreachable(_ peer: NodeID) {
        guard self.role == .leader, var progress = self.progress[peer], progress.state == .replicate else { return }
        progress.becomeProbe()
        self.progress[peer] = progress
    }
}
