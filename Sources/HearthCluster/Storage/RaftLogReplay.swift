/// Rebuilds every Raft group's persisted state from the node's write-ahead log, read front to back: the newest
/// hard state, the newest snapshot, and the entries after that snapshot, with a rewritten suffix replacing the old.
///
/// A pure fold, so recovery is tested on record sequences alone. Replay may start at any record the log kept after
/// truncation (`RaftLogRetention`), so a group's first record may be entries that its snapshot record follows; a
/// group whose records leave a hole (entries starting past the end of what it holds, or entries that do not reach
/// back to its snapshot) means records are missing, and replay stops with an error naming the group and indexes
/// rather than hand Raft a log with a gap.
public struct RaftLogReplay: Sendable {
    /// One group's persisted state, as `finish()` returns it.
    public struct Group: Sendable, Equatable {
        /// The newest hard state written, if any.
        public var hardState: [UInt8]?
        /// The newest snapshot's index (0: none) and metadata.
        public var snapshotIndex: UInt64 = 0
        public var snapshotMetadata: [UInt8]?
        /// The entries after `snapshotIndex`, in index order: the first is at `snapshotIndex + 1`.
        public var entries: [[UInt8]] = []

        /// The index of the last entry held (the snapshot's when none follows it).
        public var lastIndex: UInt64 { self.snapshotIndex + UInt64(self.entries.count) }
    }

    private struct Building: Sendable {
        var hardState: [UInt8]?
        var snapshotIndex: UInt64 = 0
        var snapshotMetadata: [UInt8]?
        /// Index of `entries[0]`; 0 until the group's first entries or snapshot record.
        var firstIndex: UInt64 = 0
        var entries: [[UInt8]] = []

        /// The last index this group's records account for (entries or snapshot), nil before any.
        var end: UInt64? {
            guard self.firstIndex > 0 else { return nil }
            return self.firstIndex + UInt64(self.entries.count) - 1
        }

        mutating func apply(_ record: RaftLogRecord) throws(RaftLogReplayError) {
            switch record {
            case .hardState(_, let bytes):
                self.hardState = bytes
            case .entries(let number, let first, let entries):
                guard first >= 1 else {
                    throw RaftLogReplayError(group: number, detail: "an entries record starts at index 0")
                }
                // Entries past the end leave a hole that only a later snapshot can cover; `finish` checks that one
                // did.
                if let end = self.end, first > self.firstIndex, first <= end + 1 {
                    self.entries.removeSubrange(Int(first - self.firstIndex)...)
                } else {
                    self.entries.removeAll()
                    self.firstIndex = first
                }
                self.entries.append(contentsOf: entries)
                self.trimToSnapshot()
            case .snapshot(_, let index, let metadata):
                guard index >= self.snapshotIndex else { break }
                self.snapshotIndex = index
                self.snapshotMetadata = metadata
                if let end = self.end, end > index, self.firstIndex <= index + 1 {
                    self.trimToSnapshot()
                } else if self.end.map({ $0 <= index }) ?? true {
                    self.entries.removeAll()
                    self.firstIndex = index + 1
                }
            }
        }

        /// Drops entries the snapshot covers.
        private mutating func trimToSnapshot() {
            guard self.snapshotIndex >= self.firstIndex, !self.entries.isEmpty else { return }
            let covered = min(Int(self.snapshotIndex - self.firstIndex + 1), self.entries.count)
            self.entries.removeFirst(covered)
            self.firstIndex = self.snapshotIndex + 1
        }
    }

    private var building: [Int: Building] = [:]

    public init() {}

    /// Folds in the next record of the log, in place (copying a group's entries for every record would make a
    /// recovery quadratic in the log's length).
    /// - Throws: `RaftLogReplayError` for an entries record that starts at index 0.
    public mutating func apply(_ record: RaftLogRecord) throws(RaftLogReplayError) {
        try self.building[record.group, default: Building()].apply(record)
    }

    /// Every group that had at least one record, by group number.
    /// - Throws: `RaftLogReplayError` when a group's entries do not reach back to its snapshot.
    public func finish() throws(RaftLogReplayError) -> [Int: Group] {
        var groups: [Int: Group] = [:]
        for (number, group) in self.building {
            if !group.entries.isEmpty, group.firstIndex != group.snapshotIndex + 1 {
                throw RaftLogReplayError(
                    group: number,
                    detail: "its entries start at index \(group.firstIndex) but its snapshot covers only up to "
                        + "\(group.snapshotIndex); records are missing")
            }
            groups[number] = Group(
                hardState: group.hardState, snapshotIndex: group.snapshotIndex,
                snapshotMetadata: group.snapshotMetadata, entries: group.entries)
        }
        return groups
    }
}

/// A group's records in the write-ahead log do not form a log Raft can start from.
public struct RaftLogReplayError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The group whose records are at fault; nil when a record is too damaged to tell.
    public let group: Int?
    public let detail: String

    public init(group: Int?, detail: String) {
        self.group = group
        self.detail = detail
    }

    public var description: String {
        let subject = self.group.map { "Raft group \($0)" } ?? "A Raft record"
        return "\(subject) cannot be recovered from the write-ahead log: \(self.detail). Restore the data "
            + "directory from a backup, or remove this node's data and let it catch up from the other replicas."
    }
}
