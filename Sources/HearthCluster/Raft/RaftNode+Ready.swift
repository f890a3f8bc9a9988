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

    /// Records that the shell handled `ready` (persisted, sent, applied); call it before any other input.
    public mutating func advance(_ ready: RaftReady) {
        if let softState = ready.softState { self.reportedSoftState = softState }
        if let hardState = ready.hardState { self.persistedHardState = hardState }
        if ready.snapshot != nil { self.snapshotToInstall = nil }
        if let last = ready.entries.last { self.log.markStable(through: last.index) }
        if let last = ready.committedEntries.last { self.log.applied = max(self.log.applied, last.index) }
        self.messages.removeFirst(min(ready.messages.count, self.messages.count))
        self.readStates.removeFirst(min(ready.readStates.count, self.readStates.count))
        self.snapshotRequests.removeFirst(min(ready.snapshotRequests.count, self.snapshotRequests.count))
    }
}
