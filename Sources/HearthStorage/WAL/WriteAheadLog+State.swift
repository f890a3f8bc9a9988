extension WriteAheadLog {
    /// Where the log is in its life.
    enum Phase: Sendable, Equatable {
        /// Opened; records may be enqueued but nothing is written until `start()`.
        case notStarted
        /// The writer thread runs.
        case running
        /// `close()` was called: the writer drains what is pending, then stops.
        case closing
        /// The writer thread has stopped (after `close()` or a failure).
        case stopped
    }

    /// Who waits for a record to become durable: a task suspended in `waitUntilDurable`, or a callback
    /// (`whenDurable`); `resume` is called once, outside the lock.
    struct Waiter {
        let id: UInt64
        let resume: @Sendable (Result<Void, StorageError>) -> Void
    }

    /// What the writer thread does next, decided under the lock.
    enum WriterStep {
        case sleep
        case gather(deadline: UInt64)
        /// Write the records with these LSNs, whose frames `nextStep` handed over.
        case write(ClosedRange<UInt64>)
        case exit
    }

    /// Everything shared between callers and the writer thread; only touched under `WriteAheadLog.state`'s lock.
    struct State {
        var phase: Phase = .notStarted
        /// The LSN the next `enqueue` returns.
        var nextLSN: UInt64
        /// Enqueued records the writer has not taken yet, framed back to back in LSN order as they go to disk, their
        /// checksums not filled in yet (`WALFrame.appendUnsealed`); the last is `nextLSN - 1`. One buffer rather than
        /// an array per record: a record's bytes are copied once, from its encoder's buffer into this one, which the
        /// writer seals in place and writes as it is.
        var pending: [UInt8] = []
        /// How many records `pending` holds.
        var pendingCount = 0
        /// The payload bytes `pending` holds (frame headers not counted), measured against `batchMaximumBytes`.
        var pendingBytes = 0
        /// When the oldest pending record was enqueued (monotonic nanoseconds).
        var oldestPendingTime: UInt64 = 0
        /// Every record up to here is written, synced per the mode, and passed to `onDurable`.
        var durableLSN: UInt64
        /// Waiting tasks by the LSN they wait for.
        var waiters: [UInt64: [Waiter]] = [:]
        var nextWaiterID: UInt64 = 0
        /// Set once for good: an I/O failure, or `.closed` after a clean close.
        var failure: StorageError?
        /// The writer sleeps in `WakeSignal.wait()` and needs a signal for new records.
        var isWriterSleeping = false
        /// The writer waits out a batch window and needs a signal only once the batch is complete (`isComplete`).
        var isWriterGathering = false
        /// How many records the last batch written held. With `.batch`, after a batch of more than one (writes arrive
        /// together) the next batch waits for company until it holds as many records (the company that came last
        /// time has come again) or one window has passed since its oldest record; after a batch of one, the next
        /// record is written at once.
        var lastBatchCount = 0
        var closeWaiters: [CheckedContinuation<Void, Never>] = []
        /// The segments on disk, oldest first; the last one is being written.
        var segments: [WALSegment]
        var statistics = WALStatistics()
        /// The writer's I/O state until the writer thread takes it.
        var segmentWriter: SegmentWriter?

        init(lastLSN: UInt64, segments: [WALSegment], segmentWriter: SegmentWriter?) {
            self.nextLSN = lastLSN + 1
            self.durableLSN = lastLSN
            self.segments = segments
            self.segmentWriter = segmentWriter
        }

        /// Queues `payload` as the record `nextLSN` and returns its LSN; `now` (monotonic nanoseconds) is read only
        /// when the record is the first pending one, whose time opens the batch window. O(payload).
        mutating func append(_ payload: UnsafeRawBufferPointer, now: @autoclosure () -> UInt64) -> UInt64 {
            let lsn = self.nextLSN
            if self.pendingCount == 0 {
                self.oldestPendingTime = now()
            }
            WALFrame.appendUnsealed(lsn: lsn, payload: payload, into: &self.pending)
            self.nextLSN += 1
            self.pendingCount += 1
            self.pendingBytes += payload.count
            return lsn
        }

        /// Queues the records of `batch`, which must start at `nextLSN`, and leaves the batch's frames empty: its
        /// buffer is swapped in whole when nothing is pending (the batch gets the queue's empty buffer, with its
        /// capacity), else appended. The batch window opens at the batch's first record. O(1) or O(batch bytes).
        mutating func append(batch: inout WALBatch) {
            if self.pendingCount == 0 {
                self.oldestPendingTime = batch.oldestTime
                swap(&self.pending, &batch.frames)
            } else {
                self.pending.append(contentsOf: batch.frames)
            }
            self.nextLSN += UInt64(batch.count)
            self.pendingCount += batch.count
            self.pendingBytes += batch.payloadBytes
        }

        /// Whether records just queued must wake the writer: it sleeps, or it gathers a batch that is now complete.
        /// Clears the flag it answers from, so one wake-up is sent.
        mutating func wakesWriter(_ configuration: WALConfiguration) -> Bool {
            if self.isWriterSleeping {
                self.isWriterSleeping = false
                return true
            }
            if self.isWriterGathering && self.isComplete(configuration) {
                self.isWriterGathering = false
                return true
            }
            return false
        }

        /// Whether the pending batch waits for no more company: it holds as many records as the last batch did, or
        /// `batchMaximumBytes`.
        func isComplete(_ configuration: WALConfiguration) -> Bool {
            self.pendingCount >= self.lastBatchCount || self.pendingBytes >= configuration.batchMaximumBytes
        }

        /// Drops every pending record (after a failure or once the writer has stopped).
        mutating func dropPending() {
            self.pending.removeAll()
            self.pendingCount = 0
            self.pendingBytes = 0
        }

        /// What the writer does next, at monotonic time `now`; called under the lock. A pure function of the state
        /// and the time, so the batching rules are tested without a thread or a clock.
        ///
        /// With `.batch` on the writer thread, while writes arrive together (the last batch held more than one
        /// record), a batch waits for company until it holds as many records as the last batch did, or up to one
        /// window after its oldest record came; after a batch of one, the next record is written at once. The
        /// window opens with the first record rather than when the last batch ended: in a closed loop the next
        /// writes come back some time after a batch's answers leave, and a window waited out from the batch's end
        /// (one wake-up fewer when nothing is pending) closed before most of them came, so batches were smaller and
        /// fsyncs more frequent, which cost more than the wake-up saved. The count ends the wait as soon as the
        /// writers of the last batch are back: a window alone held every batch of a closed loop for its whole length
        /// (1.5 ms of each realtime star's ~4 ms at 64 clients), while the writers it waited for had all come; the
        /// batches are as large either way. Open-loop writers fill a batch of the last one's size, or the window
        /// ends it; a batch that grew while the writer wrote raises the count, one cut short by the window lowers it.
        /// The clock is read only when a batch might wait for company (a step per wake-up otherwise paid for it).
        ///
        /// On `.write`, the batch's frames are swapped into `frames` (the writer's buffer, which must be empty; its
        /// capacity becomes the queue's): the writer owns them alone, so it seals them in place without a copy.
        mutating func nextStep(
            _ configuration: WALConfiguration, now: @autoclosure () -> UInt64, frames: inout [UInt8]
        ) -> WriterStep {
            // The writer is awake now: a gather it was in has ended (cleared here, not with a lock of its own).
            self.isWriterGathering = false
            if self.failure != nil {
                return .exit
            }
            if self.pendingCount == 0 {
                if self.phase == .closing {
                    return .exit
                }
                self.isWriterSleeping = true
                return .sleep
            }
            if configuration.fsync == .batch && configuration.writer == .dedicatedThread && self.phase != .closing
                && self.lastBatchCount > 1 && !self.isComplete(configuration)
            {
                let window = UInt64(max(0, configuration.batchWindowMicroseconds)) * 1_000
                let deadline = self.oldestPendingTime + window
                if now() < deadline {
                    self.isWriterGathering = true
                    return .gather(deadline: deadline)
                }
            }
            let lsns = (self.nextLSN - UInt64(self.pendingCount))...(self.nextLSN - 1)
            self.lastBatchCount = self.pendingCount
            precondition(frames.isEmpty, "WriteAheadLog: the writer's buffer still held \(frames.count) bytes")
            swap(&self.pending, &frames)
            self.pendingCount = 0
            self.pendingBytes = 0
            return .write(lsns)
        }

        /// Every waiter, removed from the state.
        mutating func takeAllWaiters() -> [Waiter] {
            defer { self.waiters.removeAll() }
            return self.waiters.values.flatMap { $0 }
        }

        /// The waiters for LSNs in `range`, removed from the state. O(range + waiters resumed).
        mutating func takeWaiters(in range: ClosedRange<UInt64>) -> [Waiter] {
            var resumed: [Waiter] = []
            if UInt64(self.waiters.count) < UInt64(range.count) {
                for lsn in self.waiters.keys where range.contains(lsn) {
                    resumed.append(contentsOf: self.waiters.removeValue(forKey: lsn) ?? [])
                }
            } else {
                for lsn in range {
                    resumed.append(contentsOf: self.waiters.removeValue(forKey: lsn) ?? [])
                }
            }
            return resumed
        }
    }
}
