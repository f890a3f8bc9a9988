import Testing

@testable import HearthStorage

/// What the log's writer thread does next (`WriteAheadLog.State.nextStep`), read from the state at a given time: with
/// `.batch`, while writes arrive together a batch waits for as many records as the last batch held, at most one window
/// from its oldest record; a lone write is written at once; a full batch or a closing log does not wait; an idle writer
/// sleeps.
@Suite struct WALWriterStepTests {
    /// A millisecond in the monotonic clock's nanoseconds.
    private static let millisecond: UInt64 = 1_000_000

    /// `.batch` on the writer thread with a 2 ms window and batches of at most 100 bytes.
    private static var configuration: WALConfiguration {
        var configuration = WALConfiguration()
        configuration.batchWindowMicroseconds = 2_000
        configuration.batchMaximumBytes = 100
        return configuration
    }

    /// A running log's state with nothing pending.
    private static func state() -> WriteAheadLog.State {
        var state = WriteAheadLog.State(
            lastLSN: 0, segments: [WALSegment(firstLSN: 1, directory: "/wal")], segmentWriter: nil)
        state.phase = .running
        return state
    }

    /// Queues a record of `bytes` bytes at `time`, as `enqueue` does.
    private static func enqueue(_ state: inout WriteAheadLog.State, bytes: Int = 10, at time: UInt64) {
        let payload = [UInt8](repeating: 0, count: bytes)
        _ = payload.withUnsafeBytes { state.append($0, now: time) }
    }

    /// The writer's next step, as `nextStep` decides it for a writer whose buffer is empty.
    private static func step(
        _ state: inout WriteAheadLog.State, _ configuration: WALConfiguration, now: @autoclosure () -> UInt64
    ) -> WriteAheadLog.WriterStep {
        var frames: [UInt8] = []
        return state.nextStep(configuration, now: now(), frames: &frames)
    }

    /// The LSNs a step writes; nil for any other step.
    private static func written(_ step: WriteAheadLog.WriterStep) -> [UInt64]? {
        guard case .write(let lsns) = step else { return nil }
        return Array(lsns)
    }

    /// The deadline a step gathers until; nil for any other step.
    private static func deadline(_ step: WriteAheadLog.WriterStep) -> UInt64? {
        guard case .gather(let deadline) = step else { return nil }
        return deadline
    }

    /// While writes arrive together, a batch short of the last one's count waits for company until one window after
    /// its oldest record came, and takes everything that came meanwhile; an enqueue then finds the writer gathering,
    /// with no need to wake it.
    @Test func aBatchWaitsOneWindowFromItsOldestRecord() {
        let configuration = Self.configuration
        var state = Self.state()
        state.lastBatchCount = 3
        Self.enqueue(&state, at: 10 * Self.millisecond)
        #expect(Self.deadline(Self.step(&state, configuration, now: 10 * Self.millisecond)) == 12 * Self.millisecond)
        #expect(state.isWriterGathering && !state.isWriterSleeping)
        Self.enqueue(&state, at: 11 * Self.millisecond)
        #expect(Self.deadline(Self.step(&state, configuration, now: 11 * Self.millisecond)) == 12 * Self.millisecond)
        #expect(Self.written(Self.step(&state, configuration, now: 12 * Self.millisecond)) == [1, 2])
        #expect(!state.isWriterGathering)
    }

    /// With nothing pending the writer sleeps until a record comes (which wakes it), and the window then opens with
    /// that record, not when the last batch ended: the writes of a closed loop come back some time after a batch.
    @Test func anIdleWriterSleepsAndTheWindowOpensWithTheNextRecord() {
        let configuration = Self.configuration
        var state = Self.state()
        Self.enqueue(&state, at: 0)
        Self.enqueue(&state, at: 0)
        state.lastBatchCount = 3
        #expect(Self.written(Self.step(&state, configuration, now: 2 * Self.millisecond)) == [1, 2])
        guard case .sleep = Self.step(&state, configuration, now: 3 * Self.millisecond) else {
            Issue.record("a writer with nothing pending sleeps")
            return
        }
        #expect(state.isWriterSleeping)
        Self.enqueue(&state, at: 50 * Self.millisecond)
        #expect(Self.deadline(Self.step(&state, configuration, now: 50 * Self.millisecond)) == 52 * Self.millisecond)
    }

    /// After a batch of one record the next is written at once: no window for company that is not coming.
    @Test func aLoneRecordIsWrittenAtOnce() {
        let configuration = Self.configuration
        var state = Self.state()
        guard case .sleep = Self.step(&state, configuration, now: 0) else {
            Issue.record("an idle writer without company sleeps")
            return
        }
        Self.enqueue(&state, at: 1)
        #expect(Self.written(Self.step(&state, configuration, now: 1)) == [1])
        #expect(state.lastBatchCount == 1)
    }

    /// A batch that holds as many records as the last one did is written at once, before its window ends: the
    /// writers the last batch answered are back. A record that completes a gathering batch wakes the writer (one
    /// signal); records short of the count do not.
    @Test func aBatchAsLargeAsTheLastIsWrittenAtOnce() {
        let configuration = Self.configuration
        var state = Self.state()
        state.lastBatchCount = 3
        Self.enqueue(&state, at: 10 * Self.millisecond)
        #expect(Self.deadline(Self.step(&state, configuration, now: 10 * Self.millisecond)) == 12 * Self.millisecond)
        Self.enqueue(&state, at: 10 * Self.millisecond + 100)
        let shortOfTheCount = state.wakesWriter(configuration)
        #expect(!shortOfTheCount && state.isWriterGathering)
        Self.enqueue(&state, at: 10 * Self.millisecond + 200)
        let complete = state.wakesWriter(configuration)
        #expect(complete && !state.isWriterGathering)
        let again = state.wakesWriter(configuration)
        #expect(!again)
        #expect(Self.written(Self.step(&state, configuration, now: 10 * Self.millisecond + 300)) == [1, 2, 3])
        #expect(state.lastBatchCount == 3)
    }

    /// The count follows the writers: a batch the window cut short lowers it, one that grew while the writer wrote
    /// (more records pending than the count when the writer looks) raises it, and a batch of one ends the waiting.
    @Test func theCountFollowsTheBatchesWritten() {
        let configuration = Self.configuration
        var state = Self.state()
        state.lastBatchCount = 4
        Self.enqueue(&state, at: 0)
        Self.enqueue(&state, at: 0)
        #expect(Self.deadline(Self.step(&state, configuration, now: 0)) == 2 * Self.millisecond)
        #expect(Self.written(Self.step(&state, configuration, now: 2 * Self.millisecond)) == [1, 2])
        #expect(state.lastBatchCount == 2)
        for _ in 0..<5 { Self.enqueue(&state, at: 3 * Self.millisecond) }
        #expect(Self.written(Self.step(&state, configuration, now: 3 * Self.millisecond)) == [3, 4, 5, 6, 7])
        #expect(state.lastBatchCount == 5)
        state.lastBatchCount = 1
        Self.enqueue(&state, at: 4 * Self.millisecond)
        #expect(Self.written(Self.step(&state, configuration, now: 4 * Self.millisecond)) == [8])
    }

    /// A batch that reached its byte limit, or a closing log, is written without waiting out the window.
    @Test func aFullBatchOrAClosingLogDoesNotWait() {
        let configuration = Self.configuration
        var state = Self.state()
        state.lastBatchCount = 5
        _ = Self.step(&state, configuration, now: 0)
        Self.enqueue(&state, bytes: 100, at: 1)
        #expect(Self.written(Self.step(&state, configuration, now: 1)) == [1])
        state.lastBatchCount = 5
        Self.enqueue(&state, at: 2)
        state.phase = .closing
        #expect(Self.written(Self.step(&state, configuration, now: 2)) == [2])
        guard case .exit = Self.step(&state, configuration, now: 3) else {
            Issue.record("a closing log with nothing pending stops its writer")
            return
        }
    }

    /// Off the writer thread (a simulation drives the log) or with another fsync mode, nothing waits for company.
    @Test func onlyTheBatchModesWriterThreadWaits() {
        for mode in [FsyncMode.always, .off] {
            var configuration = Self.configuration
            configuration.fsync = mode
            var state = Self.state()
            state.lastBatchCount = 5
            Self.enqueue(&state, at: 0)
            #expect(Self.written(Self.step(&state, configuration, now: 0)) == [1], "\(mode)")
        }
        var manual = Self.configuration
        manual.writer = .manual
        var state = Self.state()
        state.lastBatchCount = 5
        guard case .sleep = Self.step(&state, manual, now: 0) else {
            Issue.record("a manual writer with nothing pending does not gather")
            return
        }
    }

    /// The clock is read only where a batch could wait for company: a sleeping writer, a lone write and a second
    /// record queued behind the first read no time; the batch that may gather reads it once.
    @Test func theClockIsReadOnlyWhereABatchCouldWait() {
        let configuration = Self.configuration
        var reads = 0
        func clock(_ time: UInt64) -> UInt64 {
            reads += 1
            return time
        }
        var state = Self.state()
        guard case .sleep = Self.step(&state, configuration, now: clock(0)) else {
            Issue.record("a writer with nothing pending sleeps")
            return
        }
        let payload: [UInt8] = [1, 2, 3]
        _ = payload.withUnsafeBytes { state.append($0, now: clock(1)) }
        _ = payload.withUnsafeBytes { state.append($0, now: clock(1)) }
        #expect(reads == 1)
        state.lastBatchCount = 0
        #expect(Self.written(Self.step(&state, configuration, now: clock(1))) == [1, 2])
        #expect(reads == 1)
        _ = payload.withUnsafeBytes { state.append($0, now: clock(5)) }
        #expect(Self.deadline(Self.step(&state, configuration, now: clock(6))) == 5 + 2 * Self.millisecond)
        #expect(reads == 3)
    }

    /// A write hands the writer the queued frames, exactly as queued, and gives the queue the writer's emptied
    /// buffer: the two swap, so records queued next go into that buffer while the writer seals its own.
    @Test func aWriteSwapsTheQueuedFramesWithTheWritersBuffer() {
        var configuration = Self.configuration
        configuration.fsync = .always
        var state = Self.state()
        var expected: [UInt8] = []
        for payload in [[1, 2, 3], [], [4]] as [[UInt8]] {
            let lsn = payload.withUnsafeBytes { state.append($0, now: 0) }
            payload.withUnsafeBytes { WALFrame.appendUnsealed(lsn: lsn, payload: $0, into: &expected) }
        }
        var frames: [UInt8] = []
        frames.reserveCapacity(4_096)
        let capacity = frames.capacity
        guard case .write(let lsns) = state.nextStep(configuration, now: 0, frames: &frames) else {
            Issue.record("queued records are written")
            return
        }
        #expect(lsns == 1...3)
        #expect(frames == expected)
        #expect(state.pending.isEmpty && state.pending.capacity == capacity && state.pendingCount == 0)
        _ = [UInt8]([9]).withUnsafeBytes { state.append($0, now: 0) }
        #expect(state.pending.count == WALFrame.headerSize + 1)
    }

    /// A batch queued onto an empty queue is swapped in whole (the batch gets the queue's empty buffer back) and
    /// opens the window at its first record's time; one queued behind pending records is appended after them and
    /// keeps the oldest record's time. Either way the frames are the ones records queued one by one would make.
    @Test func aBatchIsQueuedAsItsRecordsWouldBeOneByOne() {
        let configuration = Self.configuration
        var state = Self.state()
        state.lastBatchCount = 5
        var batch = WALBatch()
        var expected: [UInt8] = []
        for (offset, payload) in ([[1, 2, 3], [], [4]] as [[UInt8]]).enumerated() {
            let lsn = UInt64(offset + 1)
            batch.append(lsn: lsn, now: UInt64(offset + 1) * Self.millisecond) { $0 += payload }
            payload.withUnsafeBytes { WALFrame.appendUnsealed(lsn: lsn, payload: $0, into: &expected) }
        }
        #expect(batch.count == 3 && batch.payloadBytes == 4 && batch.oldestTime == Self.millisecond)
        state.append(batch: &batch)
        #expect(batch.frames.isEmpty)
        #expect(state.pending == expected && state.pendingCount == 3 && state.pendingBytes == 4 && state.nextLSN == 4)
        batch.removeAll(keepingCapacityUpTo: 1 << 20)
        batch.append(lsn: 4, now: 9 * Self.millisecond) { $0 += [5, 6] }
        [UInt8]([5, 6]).withUnsafeBytes { WALFrame.appendUnsealed(lsn: 4, payload: $0, into: &expected) }
        state.append(batch: &batch)
        #expect(state.pending == expected && state.pendingCount == 4 && state.pendingBytes == 6)
        #expect(Self.deadline(Self.step(&state, configuration, now: Self.millisecond)) == 3 * Self.millisecond)
    }
}
