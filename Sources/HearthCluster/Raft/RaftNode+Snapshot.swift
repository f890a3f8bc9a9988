extension RaftNode {
    /// Drops the log through `index`, which the application has applied and captured in a snapshot; returns the
    /// snapshot's metadata, which the shell persists with its bytes (and passes back in `RaftPersistentState`).
    public mutating func compact(through index: UInt64) throws(RaftError) -> RaftSnapshotMetadata {
        guard index >= self.log.snapshot.index, index <= self.log.applied, let term = self.log.term(at: index) else {
            throw .indexOutOfRange(
                "compact through \(index): choose an index from the last snapshot (\(self.log.snapshot.index)) "
                    + "to the last applied entry (\(self.log.applied))"
            )
        }
        let metadata = RaftSnapshotMetadata(index: index, term: term, membership: self.membership(at: index))
        self.log.compact(to: metadata)
        return metadata
    }

    /// Sends `snapshot` (the application's latest, with the metadata `compact(through:)` returned) to `peer`, which
    /// a Ready listed in `snapshotRequests`.
    public mutating func sendSnapshot(_ snapshot: RaftSnapshot, to peer: NodeID) throws(RaftError) {
        guard self.role == .leader else { throw .notLeader(leaderHint: self.leader) }
        guard var progress = self.progress[peer] else { throw .unknownMember(peer) }
        let index = snapshot.metadata.index
        guard index >= self.log.snapshot.index, index <= self.log.committed,
            self.log.term(at: index) == snapshot.metadata.term
        else {
            throw .indexOutOfRange(
                "a snapshot at \(index) cannot be sent: use the latest snapshot, at or after the compacted index "
                    + "\(self.log.snapshot.index)"
            )
        }
        progress.becomeSnapshot(pendingIndex: index)
        self.progress[peer] = progress
        self.send(.installSnapshot(snapshot), to: peer)
    }

    /// Tells the leader whether the snapshot it sent to `peer` arrived; on failure it asks for one again later.
    public mutating func reportSnapshot(to peer: NodeID, succeeded: Bool) {
        guard self.role == .leader, var progress = self.progress[peer], case .snapshot = progress.state
        else { return }
        if !succeeded { progress.state = .snapshot(pendingIndex: nil) }
        progress.becomeProbe()
        progress.probeSent = true
        self.progress[peer] = progress
    }
}
