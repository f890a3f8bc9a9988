import HearthStorage
import HearthTestKit
import Testing

@Suite struct WriteAheadLogTests {
    /// Records written across many segment rolls come back identical, in order, after reopening.
    @Test func roundTripsManyRecordsAcrossSegmentRolls() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = try WriteAheadLog(
            directory: directory.path,
            configuration: .testing(.batch, segmentBytes: 1024),
            onDurable: { _ in }
        )
        #expect(log.lastLSN == 0)
        log.start()
        var last: UInt64 = 0
        for lsn in 1...2_000 {
            last = log.enqueue(samplePayload(UInt64(lsn)))
            #expect(last == UInt64(lsn))
        }
        try await log.waitUntilDurable(last)
        await log.close()
        let segments = try directory.fileNames().filter { $0.hasPrefix("wal-") }
        #expect(segments.count > 20)
        #expect(segments.first == "wal-00000000000000000001.log")

        let reopened = try WriteAheadLog(directory: directory.path, configuration: .testing(), onDurable: { _ in })
        #expect(reopened.lastLSN == 2_000)
        let records = try replayAll(reopened)
        #expect(records.map(\.lsn) == Array(1...2_000))
        #expect(records.allSatisfy { $0.payload == samplePayload($0.lsn) })
        #expect(try replayAll(reopened, after: 1_500).map(\.lsn) == Array(1_501...2_000))
        await reopened.close()
    }

    /// Records framed into batches and queued a batch at a time (the single node's log, a write loop turn per
    /// batch) are written, rolled across segments and replayed exactly as records queued one by one; a batch that
    /// does not start at the log's next LSN is a programming error the log refuses (not tested: it stops the
    /// process).
    @Test func batchesQueuedWholeRoundTripAcrossSegmentRolls() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = try WriteAheadLog(
            directory: directory.path, configuration: .testing(.batch, segmentBytes: 1024), onDurable: { _ in })
        log.start()
        var batch = WALBatch()
        var lsn: UInt64 = 0
        for size in [1, 7, 30, 2, 100, 1, 60] {
            for _ in 0..<size {
                lsn += 1
                batch.append(lsn: lsn, now: 0) { $0 += samplePayload(lsn) }
            }
            log.enqueue(&batch, keepingCapacityUpTo: 1 << 20)
            #expect(batch.isEmpty && log.lastLSN == lsn)
        }
        try await log.waitUntilDurable(lsn)
        await log.close()
        #expect(try directory.fileNames().filter { $0.hasPrefix("wal-") }.count > 5)

        let reopened = try WriteAheadLog(directory: directory.path, configuration: .testing(), onDurable: { _ in })
        let records = try replayAll(reopened)
        #expect(records.map(\.lsn) == Array(1...lsn))
        #expect(records.allSatisfy { $0.payload == samplePayload($0.lsn) })
        #expect(reopened.enqueue([1]) == lsn + 1)
        await reopened.close()
    }

    @Test func restartContinuesLSNs() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for round in 0..<3 {
            let log = try WriteAheadLog(directory: directory.path, configuration: .testing(), onDurable: { _ in })
            #expect(log.lastLSN == UInt64(round * 10))
            log.start()
            var last: UInt64 = 0
            for _ in 0..<10 {
                last = log.enqueue(samplePayload(log.lastLSN + 1))
            }
            #expect(last == UInt64(round * 10 + 10))
            try await log.waitUntilDurable(last)
            await log.close()
        }
        let log = try WriteAheadLog(directory: directory.path, configuration: .testing(), onDurable: { _ in })
        #expect(try replayAll(log).map(\.lsn) == Array(1...30))
        await log.close()
    }

    /// `onDurable` sees every record exactly once, in LSN order, before any waiter of that record resumes.
    @Test func onDurableRunsInOrderBeforeWaitersResume() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let recorder = DurableRecorder()
        let log = try WriteAheadLog(
            directory: directory.path,
            configuration: .testing(.batch),
            onDurable: recorder.callback
        )
        log.start()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    for _ in 0..<40 {
                        let lsn = log.enqueue([1, 2, 3])
                        try await log.waitUntilDurable(lsn)
                        #expect(recorder.contains(lsn), "waiter for \(lsn) resumed before onDurable saw it")
                        #expect(log.durableLSN >= lsn)
                    }
                }
            }
            try await group.waitForAll()
        }
        await log.close()
        #expect(recorder.received == Array(1...640))
        #expect(recorder.callCount == Int(log.statistics.batches))
    }

    /// 100 tasks × 50 sequential appends with `.batch` share fsyncs: far fewer than one per record.
    @Test func groupCommitSharesFsyncsAcrossConcurrentWriters() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = try WriteAheadLog(
            directory: directory.path,
            configuration: .testing(.batch),
            onDurable: { _ in }
        )
        log.start()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<100 {
                group.addTask {
                    for index in 0..<50 {
                        let lsn = log.enqueue(samplePayload(UInt64(task * 50 + index)))
                        try await log.waitUntilDurable(lsn)
                    }
                }
            }
            try await group.waitForAll()
        }
        let statistics = log.statistics
        await log.close()
        #expect(statistics.records == 5_000)
        #expect(statistics.fsyncs < 1_000, "\(statistics)")
        #expect(statistics.batches < 1_000, "\(statistics)")
    }

    /// With `.batch`, a write that arrives alone (after a batch of one record) is written at once instead of waiting
    /// out the window for company that is not coming: ten sequential writes under a two-minute window take far less
    /// than one window (the bound leaves room for slow fsyncs on a disk the whole suite shares).
    @Test func aLoneWriteDoesNotWaitForTheBatchWindow() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = WALConfiguration.testing(.batch)
        configuration.batchWindowMicroseconds = 120_000_000
        let log = try WriteAheadLog(directory: directory.path, configuration: configuration, onDurable: { _ in })
        log.start()
        let clock = ContinuousClock()
        let elapsed = try await clock.measure {
            for index in 0..<10 {
                try await log.waitUntilDurable(log.enqueue(samplePayload(UInt64(index))))
            }
        }
        let statistics = log.statistics
        await log.close()
        #expect(elapsed < .seconds(60), "ten lone writes took \(elapsed)")
        #expect(statistics.batches == 10)
    }

    /// `.always` still fsyncs once per batch, not once per record.
    @Test func alwaysModeFsyncsEveryBatch() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = try WriteAheadLog(directory: directory.path, configuration: .testing(.always), onDurable: { _ in })
        log.start()
        for _ in 0..<20 {
            try await log.waitUntilDurable(log.enqueue([7]))
        }
        let statistics = log.statistics
        #expect(statistics.batches == 20)
        #expect(statistics.fsyncs == 20)
        await log.close()
    }

    /// Truncation removes only segments wholly covered by the snapshot LSN; the rest still replays and restarts.
    @Test func truncateKeepsSegmentsStillNeeded() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = try WriteAheadLog(
            directory: directory.path,
            configuration: .testing(.batch, segmentBytes: 200),
            onDurable: { _ in }
        )
        log.start()
        var last: UInt64 = 0
        for lsn in 1...100 {
            last = log.enqueue(samplePayload(UInt64(lsn), length: 20))
        }
        try await log.waitUntilDurable(last)
        let before = try directory.fileNames()
        log.truncate(through: 50)
        let after = try directory.fileNames()
        #expect(after.count < before.count)
        let firstKept = try #require(after.first.flatMap { UInt64($0.dropFirst(4).dropLast(4)) })
        #expect(firstKept <= 51)
        #expect(firstKept > 40)
        log.truncate(through: 1_000)
        #expect(try directory.fileNames().count == 1, "the segment being written must survive")
        await log.close()

        let reopened = try WriteAheadLog(
            directory: directory.path,
            configuration: .testing(.batch, segmentBytes: 200),
            onDurable: { _ in }
        )
        #expect(reopened.lastLSN == 100)
        let kept = try replayAll(reopened, after: 98)
        #expect(kept.map(\.lsn) == [99, 100])
        #expect(throws: StorageError.self) { try replayAll(reopened, after: 10) }
        reopened.start()
        let next = reopened.enqueue([1])
        #expect(next == 101)
        try await reopened.waitUntilDurable(next)
        await reopened.close()
    }

    /// `firstLSN` is where recovery can replay from after truncation; `sealedThrough` is the most truncation can
    /// remove (everything before the segment being written).
    @Test func firstLSNAndSealedThroughFollowTheSegments() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = try WriteAheadLog(
            directory: directory.path, configuration: .testing(.off, segmentBytes: 100), onDurable: { _ in })
        #expect(log.firstLSN == 1)
        #expect(log.sealedThrough == 0)
        log.start()
        var last: UInt64 = 0
        for lsn in 1...30 {
            last = log.enqueue(samplePayload(UInt64(lsn), length: 30))
        }
        try await log.waitUntilDurable(last)
        let sealed = log.sealedThrough
        #expect(sealed > 0 && sealed < 30)
        log.truncate(through: 20)
        #expect(log.firstLSN > 1 && log.firstLSN <= 21)
        log.truncate(through: sealed)
        #expect(log.firstLSN == sealed + 1)
        await log.close()
        let reopened = try WriteAheadLog(directory: directory.path, configuration: .testing(), onDurable: { _ in })
        #expect(try replayAll(reopened, after: reopened.firstLSN - 1).map(\.lsn) == Array((sealed + 1)...30))
        await reopened.close()
    }

    @Test func replayReportsMissingRecordsAfterTruncation() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = try WriteAheadLog(
            directory: directory.path,
            configuration: .testing(.off, segmentBytes: 100),
            onDurable: { _ in }
        )
        log.start()
        var last: UInt64 = 0
        for lsn in 1...30 {
            last = log.enqueue(samplePayload(UInt64(lsn), length: 30))
        }
        try await log.waitUntilDurable(last)
        log.truncate(through: 20)
        await log.close()
        let reopened = try WriteAheadLog(directory: directory.path, configuration: .testing(), onDurable: { _ in })
        let error = try #require(throws: StorageError.self) { try replayAll(reopened, after: 5) }
        #expect(error.code == .missingRecords)
        #expect(try replayAll(reopened, after: 20).map(\.lsn) == Array(21...30))
        await reopened.close()
    }

    /// After close, records not yet written fail their waiters instead of hanging.
    @Test func waitingAfterCloseThrowsClosed() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = try WriteAheadLog(directory: directory.path, configuration: .testing(), onDurable: { _ in })
        log.start()
        let written = log.enqueue([1])
        await log.close()
        try await log.waitUntilDurable(written)
        let late = log.enqueue([2])
        let error = await #expect(throws: StorageError.self) { try await log.waitUntilDurable(late) }
        #expect(error?.code == .closed)
    }

    /// Closing a log that never started still writes what was enqueued.
    @Test func closeWithoutStartDrainsTheQueue() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = try WriteAheadLog(directory: directory.path, configuration: .testing(.always), onDurable: { _ in })
        let lsn = log.enqueue([9, 9])
        await log.close()
        try await log.waitUntilDurable(lsn)
        let reopened = try WriteAheadLog(directory: directory.path, configuration: .testing(), onDurable: { _ in })
        #expect(try replayAll(reopened) == [WALRecord(lsn: 1, payload: [9, 9])])
        await reopened.close()
    }

    @Test func cancelledWaitThrowsCancelled() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = try WriteAheadLog(directory: directory.path, configuration: .testing(), onDurable: { _ in })
        let lsn = log.enqueue([1])
        let task = Task { try await log.waitUntilDurable(lsn) }
        task.cancel()
        let error = await #expect(throws: StorageError.self) { try await task.value }
        #expect(error?.code == .cancelled)
        await log.close()
    }
}
