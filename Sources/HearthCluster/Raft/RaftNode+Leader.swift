extension RaftNode {
    mutating func tickLeader() {
        self.heartbeatElapsed += 1
        self.electionElapsed += 1
        if self.electionElapsed >= self.configuration.electionTicks {
            self.electionElapsed = 0
            if self.configuration.checkQuorum && !self.quorumActive() {
                self.becomeFollower(term: self.term, leader: nil)
                return
            }
            // A transfer that did not finish within an election timeout is abandoned.
            self.transferee = nil
        }
        for peer in self.peers {
            guard var progress = self.progress[peer] else { continue }
            progress.silentTicks = min(progress.silentTicks + 1, self.configuration.electionTicks)
            self.progress[peer] = progress
            guard case .snapshot = progress.state else { continue }
            progress.snapshotTicks += 1
            if progress.snapshotTicks >= 2 * self.configuration.electionTicks {
                progress.becomeProbe()
            }
            self.progress[peer] = progress
        }
        if self.heartbeatElapsed >= self.configuration.heartbeatTicks {
            self.heartbeatElapsed = 0
            self.broadcastHeartbeat()
        }
    }

    /// Members other than this node, in a stable order.
    var peers: [NodeID] { self.membership.members.filter { $0 != self.id } }

    /// Whether a quorum of voters answered since the last check (check-quorum, thesis §6.2); clears the marks.
    private mutating func quorumActive() -> Bool {
        var active = 0
        for voter in self.membership.voters {
            if voter == self.id || self.progress[voter]?.recentActive == true { active += 1 }
            self.progress[voter]?.recentActive = false
        }
        return active >= self.membership.quorum
    }

    /// Appends one entry in the current term and returns its index.
    mutating func appendAsLeader(_ payload: RaftEntry.Payload) -> UInt64 {
        let entry = RaftEntry(index: self.log.lastIndex + 1, term: self.term, payload: payload)
        self.log.append([entry])
        if case .membership = payload { self.refreshMembership() }
        _ = self.maybeCommit()
        return entry.index
    }

    mutating func broadcastAppend() {
        for peer in self.peers { self.sendAppend(to: peer, sendIfEmpty: true) }
    }

    mutating func broadcastHeartbeat() {
        let context = self.pendingReads.last?.context ?? []
        for peer in self.peers {
            let match = self.progress[peer]?.match ?? 0
            self.send(.heartbeat(commit: min(match, self.log.committed), context: context), to: peer)
        }
    }

    /// Sends `peer` the entries it needs next, or asks the shell for a snapshot when they are compacted away.
    /// Returns whether it sent anything.
    @discardableResult
    mutating func sendAppend(to peer: NodeID, sendIfEmpty: Bool) -> Bool {
        guard var progress = self.progress[peer], !progress.isPaused(maxInflight: self.configuration.maxInflightAppends)
        else { return false }
        let prevIndex = progress.next - 1
        guard let prevTerm = self.log.term(at: prevIndex),
            let entries = self.log.entries(
                from: progress.next,
                maxBytes: self.configuration.maxAppendBytes,
                maxCount: self.configuration.maxAppendEntries
            )
        else {
            progress.becomeSnapshot(pendingIndex: nil)
            self.progress[peer] = progress
            if !self.snapshotRequests.contains(peer) { self.snapshotRequests.append(peer) }
            return false
        }
        guard !entries.isEmpty || sendIfEmpty else { return false }
        self.send(
            .append(prevIndex: prevIndex, prevTerm: prevTerm, entries: entries, commit: self.log.committed),
            to: peer
        )
        progress.sent(lastIndex: entries.last?.index)
        self.progress[peer] = progress
        return true
    }

    mutating func stepLeader(_ message: RaftMessage) {
        let peer = message.from
        switch message.kind {
        case .readIndex(let context):
            self.handleReadIndex(context: context, requester: peer)
            return
        case .appendAccepted, .appendRejected, .heartbeatResponse:
            break
        default:
            return
        }
        guard var progress = self.progress[peer] else { return }
        progress.recentActive = true
        progress.silentTicks = 0
        switch message.kind {
        case .appendAccepted(let matchIndex):
            self.progress[peer] = progress
            self.handleAppendAccepted(from: peer, matchIndex: matchIndex)
        case .appendRejected(let rejectedIndex, let hintIndex, let hintTerm):
            // A follower's hint past this log's end says nothing more than the end does (and `hint + 1` must not
            // overflow on a number a peer sent).
            let hinted = hintTerm > 0 ? self.log.conflictHint(index: hintIndex, term: hintTerm).index : hintIndex
            let hint = min(hinted, self.log.lastIndex)
            if progress.decrease(rejected: rejectedIndex, hint: hint) {
                if progress.state == .replicate { progress.becomeProbe() }
                self.progress[peer] = progress
                self.sendAppend(to: peer, sendIfEmpty: true)
            } else {
                self.progress[peer] = progress
            }
        case .heartbeatResponse(let context):
            progress.probeSent = false
            if progress.state == .replicate && progress.inflight.count >= self.configuration.maxInflightAppends {
                progress.inflight.removeFirst()
            }
            self.progress[peer] = progress
            if progress.match < self.log.lastIndex || progress.state == .probe {
                self.sendAppend(to: peer, sendIfEmpty: true)
            }
            if !context.isEmpty { self.acknowledgeRead(context: context, from: peer) }
        default:
            break
        }
    }

    private mutating func handleAppendAccepted(from peer: NodeID, matchIndex: UInt64) {
        // No follower can match past the leader's log (Leader Completeness): a larger number is a peer's error, and
        // taking it would overflow `matchIndex + 1`.
        guard matchIndex <= self.log.lastIndex, var progress = self.progress[peer] else { return }
        guard progress.update(match: matchIndex) else {
            self.progress[peer] = progress
            return
        }
        switch progress.state {
        case .probe:
            progress.becomeReplicate()
        case .snapshot where progress.match + 1 >= self.log.firstIndex:
            progress.becomeReplicate()
        default:
            break
        }
        self.progress[peer] = progress
        if self.maybeCommit() {
            self.broadcastAppend()
        } else {
            while self.sendAppend(to: peer, sendIfEmpty: false) {}
        }
        if self.role == .leader, peer == self.transferee, self.progress[peer]?.match == self.log.lastIndex {
            self.send(.timeoutNow, to: peer)
        }
    }

    /// Commits the highest index a quorum of voters holds, if it is from this term (Raft paper §5.4.2). Returns
    /// whether the commit index moved. The leader holds what its shell has persisted, not what it appended: its
    /// appends may reach the followers before its own write is durable.
    @discardableResult
    mutating func maybeCommit() -> Bool {
        let voters = self.membership.voters
        guard !voters.isEmpty else { return false }
        let matches = voters.map { $0 == self.id ? self.log.stableIndex : (self.progress[$0]?.match ?? 0) }
        let quorumIndex = matches.sorted(by: >)[self.membership.quorum - 1]
        guard quorumIndex > self.log.committed, self.log.term(at: quorumIndex) == self.term else { return false }
        self.log.commit(to: quorumIndex)
        self.committedInLeaderTerm()
        return true
    }

    /// Makes `progress` hold exactly the current members other than this node.
    mutating func refreshProgress() {
        guard self.role == .leader else { return }
        var updated: [NodeID: RaftProgress] = [:]
        for peer in self.peers {
            updated[peer] = self.progress[peer] ?? RaftProgress(next: self.log.lastIndex + 1)
        }
        self.progress = updated
    }
}
