extension RaftNode {
    /// Proposes one change of the replica set (thesis §4.1). Only the leader accepts it, only once it has committed
    /// an entry of its term, and only while no earlier change is uncommitted.
    public mutating func proposeConfigurationChange(_ change: RaftConfigurationChange) -> RaftProposal {
        guard self.role == .leader else { return .notLeader(leaderHint: self.leader) }
        if let transferee = self.transferee { return .rejected(.transferringLeadership(to: transferee)) }
        guard self.membershipIndex <= self.log.committed else {
            return .rejected(.configurationChangePending(index: self.membershipIndex))
        }
        guard self.log.term(at: self.log.committed) == self.term else { return .rejected(.leaderNotReady) }
        let updated: RaftMembership
        do {
            updated = try self.membership.applying(change)
        } catch {
            return .rejected(error)
        }
        let index = self.appendAsLeader(.membership(updated))
        self.broadcastAppend()
        return .accepted(index: index, term: self.term)
    }

    /// Sets `membership` from the latest membership entry in the log, else from the snapshot, and (on a leader)
    /// starts or stops tracking members accordingly.
    mutating func refreshMembership() {
        if let entry = self.log.entries.last(where: \.isMembership), case .membership(let membership) = entry.payload {
            self.membership = membership
            self.membershipIndex = entry.index
        } else {
            self.membership = self.log.snapshot.membership
            self.membershipIndex = self.log.snapshot.index
        }
        self.refreshProgress()
    }

    /// The membership in effect at `index` (at or after the snapshot), for a snapshot's metadata.
    func membership(at index: UInt64) -> RaftMembership {
        let upToIndex = self.log.entries.prefix { $0.index <= index }
        if let entry = upToIndex.last(where: \.isMembership), case .membership(let membership) = entry.payload {
            return membership
        }
        return self.log.snapshot.membership
    }

    /// Runs when a leader's commit index moves: releases reads that waited for the term's first commit, and steps
    /// down once a configuration that removed this leader is committed.
    mutating func committedInLeaderTerm() {
        if !self.readsAwaitingCommit.isEmpty {
            let waiting = self.readsAwaitingCommit
            self.readsAwaitingCommit = []
            for read in waiting { self.handleReadIndex(context: read.context, requester: read.requester) }
        }
        if self.membershipIndex <= self.log.committed && !self.membership.isVoter(self.id) {
            self.broadcastAppend()
            self.becomeFollower(term: self.term, leader: nil)
        }
    }
}
