/// The part of a Raft log a node keeps in memory: the cut of its latest snapshot and every entry after it, plus how
/// far the entries are committed, applied, and handed to the shell to persist.
public struct RaftLog: Sendable {
    /// The cut of the latest snapshot; entries start right after it.
    public private(set) var snapshot: RaftSnapshotMetadata
    /// Entries `snapshot.index + 1 ... lastIndex`, contiguous.
    public private(set) var entries: [RaftEntry]
    /// The highest index known to be committed.
    public private(set) var committed: UInt64
    /// The highest index the shell has applied (or restored from a snapshot).
    public internal(set) var applied: UInt64
    /// The first index not yet handed to the shell to persist.
    var unstableFrom: UInt64

    init(restoring state: RaftPersistentState) throws(RaftError) {
        let (end, overflow) = state.snapshot.index.addingReportingOverflow(UInt64(state.entries.count))
        guard !overflow, end <= RaftMessage.maxIndex, state.hardState.term <= RaftMessage.maxIndex else {
            throw .invalidPersistentState(
                "the snapshot at \(state.snapshot.index) with \(state.entries.count) entries after it, in term "
                    + "\(state.hardState.term), is beyond the largest index or term \(RaftMessage.maxIndex)"
            )
        }
        for (offset, entry) in state.entries.enumerated() where entry.index != state.snapshot.index + 1 + UInt64(offset)
        {
            throw .invalidPersistentState(
                "entry \(offset) after the snapshot at \(state.snapshot.index) has index \(entry.index); "
                    + "entries must follow the snapshot without gaps"
            )
        }
        let last = state.snapshot.index + UInt64(state.entries.count)
        guard state.hardState.commit <= last else {
            throw .invalidPersistentState("commit \(state.hardState.commit) is beyond the last entry \(last)")
        }
        self.snapshot = state.snapshot
        self.entries = state.entries
        self.committed = max(state.hardState.commit, state.snapshot.index)
        self.applied = state.snapshot.index
        self.unstableFrom = last + 1
    }

    public var firstIndex: UInt64 { self.snapshot.index + 1 }
    public var lastIndex: UInt64 { self.snapshot.index + UInt64(self.entries.count) }

    /// The last index the shell has persisted (`markStable`); a leader counts its own log only this far.
    var stableIndex: UInt64 { min(self.lastIndex, self.unstableFrom - 1) }
    public var lastTerm: UInt64 { self.entries.last?.term ?? self.snapshot.term }

    /// The term of the entry at `index`, or nil when it is compacted away or beyond the log.
    public func term(at index: UInt64) -> UInt64? {
        if index == self.snapshot.index { return self.snapshot.term }
        guard index > self.snapshot.index, index <= self.lastIndex else { return nil }
        return self.entries[self.position(of: index)].term
    }

    public func entry(at index: UInt64) -> RaftEntry? {
        guard index > self.snapshot.index, index <= self.lastIndex else { return nil }
        return self.entries[self.position(of: index)]
    }

    func matches(index: UInt64, term: UInt64) -> Bool { self.term(at: index) == term }

    /// Whether a candidate whose log ends at (`lastIndex`, `lastTerm`) is at least as up to date as this log
    /// (Raft paper §5.4.1).
    func isUpToDate(lastIndex: UInt64, lastTerm: UInt64) -> Bool {
        lastTerm > self.lastTerm || (lastTerm == self.lastTerm && lastIndex >= self.lastIndex)
    }

    /// Entries from `index` on, capped by bytes (at least one entry) and count; nil when `index` is compacted.
    func entries(from index: UInt64, maxBytes: Int, maxCount: Int) -> [RaftEntry]? {
        guard index > self.snapshot.index else { return nil }
        guard index <= self.lastIndex else { return [] }
        var batch: [RaftEntry] = []
        var bytes = 0
        for entry in self.entries[self.position(of: index)...] {
            bytes += entry.approximateSize
            guard batch.isEmpty || (bytes <= maxBytes && batch.count < maxCount) else { break }
            batch.append(entry)
        }
        return batch
    }

    /// Entries the shell has not been asked to persist yet.
    var unstableEntries: ArraySlice<RaftEntry> {
        guard self.unstableFrom <= self.lastIndex else { return [] }
        return self.entries[self.position(of: self.unstableFrom)...]
    }

    /// Committed entries not applied yet, in order.
    var entriesToApply: ArraySlice<RaftEntry> {
        guard self.committed > self.applied else { return [] }
        return self.entries[self.position(of: self.applied + 1)...self.position(of: self.committed)]
    }

    /// The largest index at or below `index` whose term is at most `term`, with that term (the hint of a rejected
    /// append, which skips a whole term of conflicting entries at once). Stops at the snapshot.
    func conflictHint(index: UInt64, term: UInt64) -> (index: UInt64, term: UInt64) {
        var candidate = min(index, self.lastIndex)
        while let found = self.term(at: candidate) {
            if found <= term || candidate == 0 { return (candidate, found) }
            candidate -= 1
        }
        return (candidate, 0)
    }

    /// Appends a leader's new entries at the end.
    mutating func append(_ newEntries: [RaftEntry]) {
        self.entries.append(contentsOf: newEntries)
    }

    /// Appends a leader's entries that follow `prevIndex` (already matched): skips those already present, truncates
    /// at the first conflict and appends the rest. Returns the index the first truncated entry had, if any.
    mutating func merge(_ newEntries: [RaftEntry]) -> UInt64? {
        var truncatedAt: UInt64?
        for (offset, entry) in newEntries.enumerated() {
            guard let existing = self.term(at: entry.index) else {
                self.entries.append(contentsOf: newEntries[offset...])
                break
            }
            guard existing != entry.term else { continue }
            precondition(
                entry.index > self.committed,
                "Raft: a leader's entry \(entry.index)/\(entry.term) conflicts with committed entry of term \(existing)"
            )
            self.entries.removeSubrange(self.position(of: entry.index)...)
            self.entries.append(contentsOf: newEntries[offset...])
            self.unstableFrom = min(self.unstableFrom, entry.index)
            truncatedAt = entry.index
            break
        }
        return truncatedAt
    }

    /// Moves the commit index forward (never back, never past the log).
    mutating func commit(to index: UInt64) {
        guard index > self.committed else { return }
        precondition(index <= self.lastIndex, "Raft: commit \(index) beyond last index \(self.lastIndex)")
        self.committed = index
    }

    /// Replaces the whole log with a snapshot received from the leader.
    mutating func restore(_ metadata: RaftSnapshotMetadata) {
        self.snapshot = metadata
        self.entries = []
        self.committed = metadata.index
        self.applied = metadata.index
        self.unstableFrom = metadata.index + 1
    }

    /// Drops the entries through `index`, which the application has captured in a snapshot with `metadata`.
    mutating func compact(to metadata: RaftSnapshotMetadata) {
        self.entries.removeSubrange(..<self.position(of: metadata.index + 1))
        self.snapshot = metadata
    }

    /// Marks entries through `index` as persisted by the shell, if the entry there still has `term`: an append that
    /// replaced it after the shell took its Ready leaves the new entries unstable, for the next Ready.
    mutating func markStable(through index: UInt64, term: UInt64) {
        guard self.term(at: index) == term else { return }
        self.unstableFrom = max(self.unstableFrom, index + 1)
    }

    private func position(of index: UInt64) -> Int { Int(index - self.snapshot.index - 1) }
}
