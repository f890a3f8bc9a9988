/// Which records of the node's write-ahead log the Raft groups still need, so the log's old segments can go.
///
/// A group needs its newest hard state record, its newest snapshot record, and every entries record that still
/// holds an entry after its snapshot that no later record rewrote. The log may drop every record below the oldest
/// record any group needs. A group that writes nothing for a long time holds back truncation with its old hard
/// state; the shell then writes that group's hard state (and snapshot record) again, which `oldestNeeded` tells it.
public struct RaftLogRetention: Sendable {
    /// Why a record is still needed.
    public enum Reason: Sendable, Hashable {
        case hardState
        case snapshot
        case entries
    }

    /// An entries record's live range of indexes.
    private struct Span: Sendable {
        var first: UInt64
        var last: UInt64
        var sequence: UInt64
    }

    private struct Group: Sendable {
        var hardState: UInt64?
        var snapshot: UInt64?
        var snapshotIndex: UInt64 = 0
        /// Live spans in sequence (and index) order.
        var spans: [Span] = []

        var oldest: (sequence: UInt64, reason: Reason)? {
            var candidates: [(UInt64, Reason)] = []
            if let sequence = self.hardState { candidates.append((sequence, .hardState)) }
            if let sequence = self.snapshot { candidates.append((sequence, .snapshot)) }
            if let span = self.spans.first { candidates.append((span.sequence, .entries)) }
            return candidates.min { $0.0 < $1.0 }.map { (sequence: $0.0, reason: $0.1) }
        }

        /// An entries record rewrote the log from `first` on: spans at or after it are dead, one across it is cut.
        mutating func append(first: UInt64, count: UInt64, sequence: UInt64) {
            while let last = self.spans.last, last.first >= first { self.spans.removeLast() }
            if let last = self.spans.last, last.last >= first { self.spans[self.spans.count - 1].last = first - 1 }
            if count > 0 { self.spans.append(Span(first: first, last: first + count - 1, sequence: sequence)) }
            self.dropCovered()
        }

        mutating func snapshotted(through index: UInt64, sequence: UInt64) {
            guard index >= self.snapshotIndex else { return }
            self.snapshot = sequence
            self.snapshotIndex = index
            self.dropCovered()
        }

        /// Drops the spans a snapshot covers: a prefix, since spans are in index order.
        private mutating func dropCovered() {
            guard let first = self.spans.first, first.last <= self.snapshotIndex else { return }
            let covered = self.spans.firstIndex { $0.last > self.snapshotIndex } ?? self.spans.count
            self.spans.removeFirst(covered)
        }
    }

    private var groups: [Int: Group] = [:]

    public init() {}

    /// Notes that `record` was written at `sequence` (sequences increase with every record). O(1) amortised: a
    /// new entries record only trims spans at the end (a recovery replays every record of the log through here).
    public mutating func recorded(_ record: RaftLogRecord, at sequence: UInt64) {
        switch record {
        case .hardState:
            self.groups[record.group, default: Group()].hardState = sequence
        case .entries(_, let first, let entries):
            self.groups[record.group, default: Group()].append(
                first: first, count: UInt64(entries.count), sequence: sequence)
        case .snapshot(_, let index, _):
            self.groups[record.group, default: Group()].snapshotted(through: index, sequence: sequence)
        }
    }

    /// The oldest record some group still needs: the group, the record's sequence and why.
    public var oldestNeeded: (group: Int, sequence: UInt64, reason: Reason)? {
        self.groups.compactMap { number, group in group.oldest.map { (group: number, $0.sequence, $0.reason) } }
            .min { ($0.sequence, $0.group) < ($1.sequence, $1.group) }
    }

    /// Every group that still needs a record at or below `sequence`, with why: the groups holding back a
    /// truncation through `sequence`. One held back by its hard state or snapshot record need only write them again;
    /// one held back by entries needs a snapshot that covers them.
    public func holdingBack(through sequence: UInt64) -> [Int: Set<Reason>] {
        var holders: [Int: Set<Reason>] = [:]
        for (number, group) in self.groups {
            var reasons: Set<Reason> = []
            if let record = group.hardState, record <= sequence { reasons.insert(.hardState) }
            if let record = group.snapshot, record <= sequence { reasons.insert(.snapshot) }
            if let span = group.spans.first, span.sequence <= sequence { reasons.insert(.entries) }
            if !reasons.isEmpty { holders[number] = reasons }
        }
        return holders
    }

    /// The log may drop every record up to and including this sequence (0: nothing).
    public var truncatableThrough: UInt64 {
        guard let oldest = self.oldestNeeded else { return 0 }
        return oldest.sequence > 0 ? oldest.sequence - 1 : 0
    }
}
