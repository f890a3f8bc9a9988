extension RaftNode {
    /// Asks for a linearizable read (thesis §6.4): the leader records its commit index, confirms with a heartbeat
    /// quorum that it still leads, and then a `RaftReadState` with `context` appears in a Ready (on the node that
    /// asked; a follower forwards the request to its leader). Give each request a unique context. A request can be
    /// lost with a message or a leader change: retry after a timeout.
    public mutating func readIndex(context: [UInt8]) throws(RaftError) {
        switch self.role {
        case .leader:
            self.handleReadIndex(context: context, requester: self.id)
        default:
            guard let leader = self.leader else { throw .notLeader(leaderHint: nil) }
            self.send(.readIndex(context: context), to: leader)
        }
    }

    mutating func handleReadIndex(context: [UInt8], requester: NodeID) {
        let read = PendingRead(context: context, index: self.log.committed, requester: requester, acknowledged: [])
        guard self.log.term(at: self.log.committed) == self.term else {
            self.readsAwaitingCommit.append(read)
            return
        }
        if self.membership.voters == [self.id] {
            self.release(read)
            return
        }
        self.pendingReads.append(read)
        self.broadcastHeartbeat()
    }

    /// Counts a heartbeat answer for the read with `context`; once a quorum confirmed it, it and every earlier
    /// read are released.
    mutating func acknowledgeRead(context: [UInt8], from peer: NodeID) {
        guard self.membership.isVoter(peer),
            let position = self.pendingReads.firstIndex(where: { $0.context == context })
        else { return }
        self.pendingReads[position].acknowledged.insert(peer)
        let selfVote = self.membership.isVoter(self.id) ? 1 : 0
        guard self.pendingReads[position].acknowledged.count + selfVote >= self.membership.quorum else { return }
        let released = self.pendingReads[...position]
        self.pendingReads.removeSubrange(...position)
        for read in released { self.release(read) }
    }

    private mutating func release(_ read: PendingRead) {
        if read.requester == self.id {
            self.readStates.append(RaftReadState(index: read.index, context: read.context))
        } else {
            self.send(.readIndexResponse(index: read.index, context: read.context), to: read.requester)
        }
    }
}
