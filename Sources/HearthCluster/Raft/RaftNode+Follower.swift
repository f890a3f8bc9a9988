extension RaftNode {
    /// Appends a leader's entries when the log matches at `prevIndex` (Raft paper §5.3), else rejects with a hint
    /// that lets the leader skip a whole conflicting term at once.
    mutating func handleAppend(
        from leader: NodeID,
        prevIndex: UInt64,
        prevTerm: UInt64,
        entries: [RaftEntry],
        commit: UInt64
    ) {
        guard prevIndex >= self.log.committed else {
            self.send(.appendAccepted(matchIndex: self.log.committed), to: leader)
            return
        }
        guard self.log.matches(index: prevIndex, term: prevTerm) else {
            let hint = self.log.conflictHint(index: prevIndex, term: prevTerm)
            self.send(
                .appendRejected(rejectedIndex: prevIndex, hintIndex: hint.index, hintTerm: hint.term),
                to: leader
            )
            return
        }
        let truncatedAt = self.log.merge(entries)
        let lastNew = prevIndex + UInt64(entries.count)
        if truncatedAt != nil || entries.contains(where: \.isMembership) { self.refreshMembership() }
        self.log.commit(to: min(commit, lastNew))
        self.send(.appendAccepted(matchIndex: lastNew), to: leader)
    }

    /// Installs a leader's snapshot unless the log already holds what it covers (then it only commits).
    mutating func handleSnapshot(_ snapshot: RaftSnapshot, from leader: NodeID) {
        let metadata = snapshot.metadata
        guard metadata.index > self.log.committed else {
            self.send(.appendAccepted(matchIndex: self.log.committed), to: leader)
            return
        }
        if self.log.matches(index: metadata.index, term: metadata.term) {
            self.log.commit(to: metadata.index)
        } else {
            self.log.restore(metadata)
            self.snapshotToInstall = snapshot
            self.membership = metadata.membership
            self.membershipIndex = metadata.index
        }
        self.send(.appendAccepted(matchIndex: metadata.index), to: leader)
    }
}

extension RaftEntry {
    var isMembership: Bool {
        if case .membership = self.payload { return true }
        return false
    }
}
