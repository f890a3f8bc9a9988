extension RaftNode {
    /// Feeds a message from a peer. Messages for another group or node, and messages from older terms, are
    /// ignored (a stale leader is told the newer term so it steps down), and so are messages whose numbers no log can
    /// hold (`RaftMessage.refusal`): they change nothing, where they could otherwise overflow the log's arithmetic.
    public mutating func step(_ message: RaftMessage) {
        guard message.group == self.group, message.to == self.id, message.from != self.id, message.refusal == nil
        else { return }
        if message.term > self.term {
            guard self.acceptsHigherTerm(message) else { return }
        } else if message.term < self.term {
            self.answerStaleMessage(message)
            return
        }
        switch message.kind {
        case .vote(let lastIndex, let lastTerm, _):
            self.handleVoteRequest(message, lastIndex: lastIndex, lastTerm: lastTerm, preVote: false)
        case .preVote(let lastIndex, let lastTerm):
            self.handleVoteRequest(message, lastIndex: lastIndex, lastTerm: lastTerm, preVote: true)
        default:
            switch self.role {
            case .leader: self.stepLeader(message)
            case .preCandidate, .candidate: self.stepCandidate(message)
            case .follower: self.stepFollower(message)
            }
        }
    }

    /// Applies the rules for a message from a newer term; false when the message is to be ignored.
    private mutating func acceptsHigherTerm(_ message: RaftMessage) -> Bool {
        switch message.kind {
        case .vote(_, _, let transfer):
            if !transfer && self.configuration.checkQuorum && self.inLease { return false }
            self.becomeFollower(term: message.term, leader: nil)
        case .preVote:
            if self.configuration.checkQuorum && self.inLease { return false }
        case .preVoteResponse(granted: true):
            break
        case .append, .heartbeat, .installSnapshot:
            self.becomeFollower(term: message.term, leader: message.from)
        default:
            self.becomeFollower(term: message.term, leader: nil)
        }
        return true
    }

    /// Whether this node heard from a leader within the last election timeout.
    var inLease: Bool {
        self.leader != nil && self.electionElapsed < self.configuration.electionTicks
    }

    private mutating func answerStaleMessage(_ message: RaftMessage) {
        switch message.kind {
        case .append, .heartbeat:
            // A leader cut off from us may have been replaced; tell it our term so it steps down.
            if self.configuration.checkQuorum || self.configuration.preVote {
                self.send(.heartbeatResponse(context: []), to: message.from)
            }
        case .preVote:
            self.send(.preVoteResponse(granted: false), to: message.from)
        default:
            break
        }
    }

    private mutating func handleVoteRequest(
        _ message: RaftMessage,
        lastIndex: UInt64,
        lastTerm: UInt64,
        preVote: Bool
    ) {
        let canVote =
            self.votedFor == message.from || (self.votedFor == nil && self.leader == nil)
            || (preVote && message.term > self.term && !self.inLease)
        guard canVote && self.log.isUpToDate(lastIndex: lastIndex, lastTerm: lastTerm) else {
            self.send(preVote ? .preVoteResponse(granted: false) : .voteResponse(granted: false), to: message.from)
            return
        }
        if preVote {
            self.send(.preVoteResponse(granted: true), to: message.from, term: message.term)
        } else {
            self.electionElapsed = 0
            self.votedFor = message.from
            self.send(.voteResponse(granted: true), to: message.from)
        }
    }

    private mutating func stepFollower(_ message: RaftMessage) {
        switch message.kind {
        case .append(let prevIndex, let prevTerm, let entries, let commit):
            self.heardFromLeader(message.from)
            self.leaderCommit = max(self.leaderCommit, commit)
            self.handleAppend(
                from: message.from, prevIndex: prevIndex, prevTerm: prevTerm, entries: entries, commit: commit)
        case .heartbeat(let commit, let context):
            self.heardFromLeader(message.from)
            self.leaderCommit = max(self.leaderCommit, commit)
            self.log.commit(to: min(commit, self.log.lastIndex))
            self.send(.heartbeatResponse(context: context), to: message.from)
        case .installSnapshot(let snapshot):
            self.heardFromLeader(message.from)
            self.handleSnapshot(snapshot, from: message.from)
        case .timeoutNow:
            self.campaign(preVote: false, transfer: true)
        case .readIndexResponse(let index, let context):
            self.readStates.append(RaftReadState(index: index, context: context))
        case .readIndex:
            if let leader = self.leader { self.send(message.kind, to: leader) }
        default:
            break
        }
    }

    private mutating func stepCandidate(_ message: RaftMessage) {
        switch message.kind {
        case .append, .heartbeat, .installSnapshot:
            self.becomeFollower(term: message.term, leader: message.from)
            self.stepFollower(message)
        case .voteResponse(let granted) where self.role == .candidate:
            self.tally(granted, from: message.from)
        case .preVoteResponse(let granted) where self.role == .preCandidate:
            self.tally(granted, from: message.from)
        default:
            break
        }
    }

    private mutating func heardFromLeader(_ leader: NodeID) {
        self.electionElapsed = 0
        self.leader = leader
    }
}
