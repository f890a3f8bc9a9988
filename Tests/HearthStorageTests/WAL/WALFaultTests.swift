import HearthStorage
import HearthTestKit
import Synchronization
import Testing

@Suite struct WALFaultTests {
    /// A failed fsync is fatal: the waiting writer, later writers and `onDurable` never see success.
    @Test func fsyncFailureFailsCurrentAndFutureWaiters() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fileSystem = FaultyFileSystem()
        let recorder = DurableRecorder()
        let log = try WriteAheadLog(
            directory: directory.path,
            configuration: .testing(.always),
            fileSystem: fileSystem,
            onDurable: recorder.callback
        )
        log.start()
        try await log.waitUntilDurable(log.enqueue([1]))
        fileSystem.plan.withLock { $0.successfulSynchronizations = $0.synchronizations }
        let failing = log.enqueue([2])
        let first = await #expect(throws: StorageError.self) { try await log.waitUntilDurable(failing) }
        #expect(first?.code == .io)
        #expect(first?.message.contains("injected fsync failure") == true)
        let later = log.enqueue([3])
        let second = await #expect(throws: StorageError.self) { try await log.waitUntilDurable(later) }
        #expect(second?.code == .io)
        #expect(recorder.received == [1])
        try await log.waitUntilDurable(1)
        await log.close()
    }

    /// Many waiters blocked on one failing batch all receive the error.
    @Test func ioErrorFailsEveryConcurrentWaiter() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fileSystem = FaultyFileSystem()
        let log = try WriteAheadLog(
            directory: directory.path,
            configuration: .testing(.batch),
            fileSystem: fileSystem,
            onDurable: { _ in }
        )
        fileSystem.plan.withLock { $0.remainingWriteBytes = 0 }
        let lsns = (0..<50).map { _ in log.enqueue([4, 5, 6]) }
        log.start()
        let failures = await withTaskGroup(of: Bool.self) { group in
            for lsn in lsns {
                group.addTask {
                    do {
                        try await log.waitUntilDurable(lsn)
                        return false
                    } catch {
                        return (error as? StorageError)?.code == .io
                    }
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(failures == 50)
        await log.close()
    }

    /// Short writes are retried until the whole batch is on disk.
    @Test func shortWritesStillProduceACompleteLog() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fileSystem = FaultyFileSystem(FaultyFileSystem.Plan(maximumWriteChunk: 7))
        let log = try WriteAheadLog(
            directory: directory.path,
            configuration: .testing(.batch, segmentBytes: 300),
            fileSystem: fileSystem,
            onDurable: { _ in }
        )
        log.start()
        var last: UInt64 = 0
        for lsn in 1...200 {
            last = log.enqueue(samplePayload(UInt64(lsn)))
        }
        try await log.waitUntilDurable(last)
        await log.close()
        #expect(fileSystem.plan.withLock { $0.writes } > 200)
        let reopened = try WriteAheadLog(directory: directory.path, configuration: .testing(), onDurable: { _ in })
        let records = try replayAll(reopened)
        #expect(records.map(\.lsn) == Array(1...200))
        #expect(records.allSatisfy { $0.payload == samplePayload($0.lsn) })
        await reopened.close()
    }

    /// A write torn part-way (the process "crashes") leaves a tail that the next open truncates; every
    /// acknowledged record survives and appends continue densely.
    @Test func tornWriteIsRecoveredOnReopen() async throws {
        for budget in [0, 5, 16, 17, 40, 95, 150] {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let fileSystem = FaultyFileSystem()
            let log = try WriteAheadLog(
                directory: directory.path,
                configuration: .testing(.always),
                fileSystem: fileSystem,
                onDurable: { _ in }
            )
            log.start()
            for lsn in 1...3 {
                try await log.waitUntilDurable(log.enqueue(samplePayload(UInt64(lsn), length: 20)))
            }
            fileSystem.plan.withLock { $0.remainingWriteBytes = budget }
            let lsns = (4...8).map { _ in log.enqueue(samplePayload(0, length: 20)) }
            await #expect(throws: StorageError.self) { try await log.waitUntilDurable(lsns[4]) }
            await log.close()

            let reopened = try WriteAheadLog(directory: directory.path, configuration: .testing(), onDurable: { _ in })
            let survivors = UInt64(budget / 36)
            #expect(reopened.lastLSN == 3 + survivors, "budget \(budget)")
            #expect(try replayAll(reopened).map(\.lsn) == Array(1...(3 + survivors)), "budget \(budget)")
            reopened.start()
            let next = reopened.enqueue([1])
            #expect(next == 4 + survivors, "budget \(budget)")
            try await reopened.waitUntilDurable(next)
            await reopened.close()
        }
    }
}
