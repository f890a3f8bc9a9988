/// Records framed for the write-ahead log ahead of handing them over together (`WriteAheadLog.enqueue(_:)`): a
/// producer that numbers its records itself (the log's only producer) encodes each straight into these frames, as
/// they go to disk, and takes the log's lock once for all of them rather than once per record.
///
/// The frames are unsealed (`WALFrame.appendUnsealed`); the log's writer seals them in place, as it does the frames
/// `WriteAheadLog.enqueue(bytes:)` queues.
package struct WALBatch: Sendable {
    /// The records' frames, back to back in LSN order, their checksums not filled in yet.
    package internal(set) var frames: [UInt8] = []
    /// How many records `frames` holds.
    package internal(set) var count = 0
    /// The payload bytes `frames` holds (frame headers not counted).
    package internal(set) var payloadBytes = 0
    /// The LSN of the first record (meaningless while the batch is empty).
    package internal(set) var firstLSN: UInt64 = 0
    /// When the first record was framed (monotonic nanoseconds): the log's batch window opens then, as it would
    /// have had the record been queued on its own.
    package internal(set) var oldestTime: UInt64 = 0

    /// An empty batch.
    package init() {}

    /// Whether the batch holds no record.
    package var isEmpty: Bool { self.count == 0 }

    /// The LSN the next record framed here must have (when the batch is not empty).
    package var nextLSN: UInt64 { self.firstLSN &+ UInt64(self.count) }

    /// Frames record `lsn`, whose payload `encode` appends (it must only append); `now` (monotonic nanoseconds) is
    /// read only for the batch's first record. The LSNs of a batch are consecutive. O(payload).
    package mutating func append(
        lsn: UInt64, now: @autoclosure () -> UInt64, encoding encode: (inout [UInt8]) -> Void
    ) {
        if self.count == 0 {
            self.firstLSN = lsn
            self.oldestTime = now()
        } else {
            precondition(lsn == self.nextLSN, "WALBatch: record \(lsn) framed after record \(self.nextLSN - 1)")
        }
        self.payloadBytes += WALFrame.appendUnsealed(lsn: lsn, into: &self.frames, encoding: encode)
        self.count += 1
    }

    /// Empties the batch, keeping its buffer's capacity unless it grew past `keptCapacity` bytes (so one large
    /// record does not pin its size for the life of the process).
    package mutating func removeAll(keepingCapacityUpTo keptCapacity: Int) {
        self.frames.removeAll(keepingCapacity: self.frames.capacity <= keptCapacity)
        self.count = 0
        self.payloadBytes = 0
    }
}
