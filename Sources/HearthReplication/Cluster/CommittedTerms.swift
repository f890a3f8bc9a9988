import HearthCore

/// The term of each committed entry of one shard's group, kept as runs of equal terms, so a write waiting for its
/// entry learns whether the entry committed in the term it was proposed in even after the log was compacted past
/// it, or a snapshot from the leader replaced the log.
///
/// Terms never decrease along a committed log, so the history is one run per term that committed anything: a few
/// numbers for a shard's whole life, carried in its snapshots. Nothing is known below `floor` (after a gap, or once
/// more than `maximumRuns` runs would be kept, the oldest are forgotten; a write that waited that long is told its
/// entry was not committed).
package struct CommittedTerms: Sendable, Equatable {
    /// A stretch of consecutive committed entries sharing one term.
    struct Run: Sendable, Equatable {
        var first: UInt64
        var term: UInt64
    }

    /// The most runs kept.
    static let maximumRuns = 1024

    /// The runs, in index order.
    private(set) var runs: [Run] = []
    /// The highest index recorded (0: none).
    private(set) var last: UInt64 = 0
    /// The lowest index whose term is known.
    private(set) var floor: UInt64 = 1

    package init() {}

    /// Notes committed entry `index` of `term`; entries already recorded are ignored, and a gap forgets everything
    /// before it.
    mutating func record(index: UInt64, term: UInt64) {
        guard index > self.last else { return }
        if index > self.last + 1 {
            self.runs.removeAll()
            self.floor = index
        }
        if self.runs.last?.term != term { self.runs.append(Run(first: index, term: term)) }
        self.last = index
        if self.runs.count > Self.maximumRuns {
            self.runs.removeFirst(self.runs.count - Self.maximumRuns)
            self.floor = self.runs[0].first
        }
    }

    /// The history through `index` only (a snapshot there carries it).
    func truncated(through index: UInt64) -> CommittedTerms {
        guard index < self.last else { return self }
        var prefix = self
        prefix.runs.removeAll { $0.first > index }
        prefix.last = prefix.runs.isEmpty ? 0 : index
        if prefix.runs.isEmpty { prefix.floor = 1 }
        return prefix
    }

    /// The term of committed entry `index`, or nil when it is not known.
    func term(at index: UInt64) -> UInt64? {
        guard index >= self.floor, index <= self.last, !self.runs.isEmpty else { return nil }
        var low = 0
        var high = self.runs.count
        while high - low > 1 {
            let middle = (low + high) / 2
            if self.runs[middle].first <= index { low = middle } else { high = middle }
        }
        return self.runs[low].first <= index ? self.runs[low].term : nil
    }
}

extension CommittedTerms {
    /// Layout (little-endian): `u64 floor`, `u64 last`, `u32 count`, then each run as `u64 first`, `u64 term`.
    func encode(to bytes: inout [UInt8]) {
        BinaryWriter.append(self.floor, to: &bytes)
        BinaryWriter.append(self.last, to: &bytes)
        BinaryWriter.append(UInt32(truncatingIfNeeded: self.runs.count), to: &bytes)
        for run in self.runs {
            BinaryWriter.append(run.first, to: &bytes)
            BinaryWriter.append(run.term, to: &bytes)
        }
    }

    /// Reads what `encode(to:)` wrote.
    /// - Throws: `BinaryDecodingError` when the bytes end early or the runs are out of order.
    init(from reader: inout BinaryReader) throws(BinaryDecodingError) {
        self.floor = try reader.readUInt64()
        self.last = try reader.readUInt64()
        let count = Int(try reader.readUInt32())
        guard count <= Self.maximumRuns else { throw BinaryDecodingError("\(count) term runs exceed the limit") }
        for _ in 0..<count {
            let run = Run(first: try reader.readUInt64(), term: try reader.readUInt64())
            guard run.first >= self.floor, run.first <= self.last, run.first > (self.runs.last?.first ?? 0) else {
                throw BinaryDecodingError("term run at \(run.first) is out of order")
            }
            self.runs.append(run)
        }
    }
}
