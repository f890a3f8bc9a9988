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
    }

    private var groups: [Int: Group] = [:]

    public init() {}

    /// Notes that `record` was written at `sequence` (sequences increase with every record).
    public mutating func recorded(_ record: RaftLogRecord, at sequence: UInt64) {
        var group = self.groups[record.group] ?? Group()
        switch record {
        case .hardState:
            group.hardState = sequence
        case .entries(_, let first, let entries):
            group.spans = group.spans.compactMap { span in
                guard span.first < first else { return nil }
                return Span(first: span.first, last: min(span.last, first - 1), sequence: span.sequence)
            }
            if !entries.isEmpty {
                group.spans.append(Span(first: first, last: first + UInt64(entries.count) - 1, sequence: sequence))
            }
            Self.dropCovered(&group)
        case .snapshot(_, let index, _):
            if index >= group.snapshotIndex {
                group.snapshot = sequence
                group.snapshotIndex = index
                Self.dropCovered(&group)
            }
        }
        self.groups[record.group] = group
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

    private static func dropCovered(_ group: inout Group) {
        group.spans.removeAll { $0.last <= group.snapshotIndex }
    }
}
