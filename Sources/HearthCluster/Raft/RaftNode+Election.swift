extension RaftNode {
    /// Starts an election (Raft paper §5.2), first as a pre-candidate when `preVote` (thesis §9.6).
    mutating func campaign(preVote: Bool, transfer: Bool) {
        guard self.isPromotable, self.role != .leader else { return }
        let campaignTerm: UInt64
        if preVote {
            self.role = .preCandidate
            self.leader = nil
            self.votes = [:]
            campaignTerm = self.term + 1
        } else {
            self.reset(term: self.term + 1)
            self.role = .candidate
            self.votedFor = self.id
            campaignTerm = self.term
        }
        self.votes[self.id] = true
        if self.hasWon {
            self.winElection()
            return
        }
        for voter in self.membership.voters where voter != self.id {
            let kind: RaftMessage.Kind =
                preVote
                ? .preVote(lastIndex: self.log.lastIndex, lastTerm: self.log.lastTerm)
                : .vote(lastIndex: self.log.lastIndex, lastTerm: self.log.lastTerm, transfer: transfer)
            self.send(kind, to: voter, term: campaignTerm)
        }
    }

    /// Counts a voter's answer; wins or gives up once a quorum has answered either way.
    mutating func tally(_ granted: Bool, from voter: NodeID) {
        guard self.membership.isVoter(voter), self.votes[voter] == nil else { return }
        self.votes[voter] = granted
        if self.hasWon {
            self.winElection()
        } else if self.votes.values.count(where: { !$0 }) >= self.membership.quorum {
            self.becomeFollower(term: self.term, leader: nil)
        }
    }

    private var hasWon: Bool {
        self.membership.voters.count(where: { self.votes[$0] == true }) >= self.membership.quorum
    }

    private mutating func winElection() {
        if self.role == .preCandidate {
            self.campaign(preVote: false, transfer: false)
        } else {
            self.becomeLeader()
        }
    }

    /// Follows `leader` (if known) in `term`, which never goes back; a new term clears the vote.
    mutating func becomeFollower(term: UInt64, leader: NodeID?) {
        self.reset(term: term)
        self.role = .follower
        self.leader = leader
    }

    /// Takes the lead: every member's progress restarts as a probe, and a no-op entry opens the term so that
    /// entries of earlier terms can commit (Raft paper §5.4.2, §8).
    mutating func becomeLeader() {
        self.reset(term: self.term)
        self.role = .leader
        self.leader = self.id
        self.refreshProgress()
        _ = self.appendAsLeader(.noop)
        self.broadcastAppend()
    }

    /// Clears everything that belongs to one term and role.
    mutating func reset(term: UInt64) {
        if term != self.term {
            self.term = term
            self.votedFor = nil
        }
        self.leader = nil
        self.electionElapsed = 0
        self.heartbeatElapsed = 0
        self.resetRandomizedElectionTimeout()
        self.votes = [:]
        self.progress = [:]
        self.transferee = nil
        self.pendingReads = []
        self.readsAwaitingCommit = []
    }
}
