extension RaftNode {
    /// The work waiting for the shell, or nil when there is none; see `RaftReady` for the contract.
    public func ready() -> RaftReady? {
        let hardState = self.hardState
        let softState = self.softState
        let ready = RaftReady(
            softState: softState == self.reportedSoftState ? nil : softState,
            hardState: hardState == self.persistedHardState ? nil : hardState,
            snapshot: self.snapshotToInstall,
            entries: Array(self.log.unstableEntries),
            messages: self.messages,
            committedEntries: Array(self.log.entriesToApply),
            readStates: self.readStates,
            snapshotRequests: self.snapshotRequests
        )
        let isEmpty =
            ready.softState == nil && ready.hardState == nil && ready.snapshot == nil && ready.entries.isEmpty
            && ready.messages.isEmpty && ready.committedEntries.isEmpty && ready.readStates.isEmpty
            && ready.snapshotRequests.isEmpty
        return isEmpty ? nil : ready
    }

    /// Whether `ready()` would return work.
    public var hasReady: Bool { self.ready() != nil }

    /// Records that the shell handled `ready` (persisted, sent, applied). Other input may arrive between `ready()`
    /// and `advance(_:)` (a shell keeps proposing while a Ready is being made durable): `advance` acknowledges only
    /// what that Ready held, and anything newer — entries that replaced the ones it persisted, a newer snapshot or
    /// hard state, more messages — comes in the next Ready.
    public mutating func advance(_ ready: RaftReady) {
        if let softState = ready.softState { self.reportedSoftState = softState }
        if let hardState = ready.hardState { self.persistedHardState = hardState }
        if let installed = ready.snapshot, self.snapshotToInstall?.metadata == installed.metadata {
            self.snapshotToInstall = nil
        }
        if let last = ready.entries.last {
            self.log.markStable(through: last.index, term: last.term)
            // The leader's own write may be what completes a quorum.
            if self.role == .leader, self.maybeCommit() { self.broadcastAppend() }
        }
        if let last = ready.committedEntries.last { self.log.applied = max(self.log.applied, last.index) }
        self.messages.removeFirst(min(ready.messages.count, self.messages.count))
        self.readStates.removeFirst(min(ready.readStates.count, self.readStates.count))
        self.snapshotRequests.removeFirst(min(ready.snapshotRequests.count, self.snapshotRequests.count))
    }
}
