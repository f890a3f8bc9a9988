import HearthStorage
import HearthTestKit
import Testing

/// The writer's zeros ahead of a segment's end (`WALConfiguration.zeroAheadBytes`): a zero tail is the log's clean
/// end, a rolled or closed segment is cut to its records, and zeros never end the log before valid frames.
@Suite struct WALZeroTailTests {
    private static let segment = "/wal/" + WALSegment.fileName(firstLSN: 1)

    /// A manual-writer log on `disk` with fsync `.batch`, zeroing `zeroAhead` bytes at a time.
    private static func open(
        _ disk: SimulatedFileSystem, zeroAhead: Int = 256, segmentBytes: Int = 64 * 1024 * 1024
    ) throws -> WriteAheadLog {
        var configuration = WALConfiguration.testing(.batch, segmentBytes: segmentBytes)
        configuration.writer = .manual
        configuration.zeroAheadBytes = zeroAhead
        try disk.createDirectories("/wal")
        return try WriteAheadLog(directory: "/wal", configuration: configuration, fileSystem: disk) { _ in }
    }

    /// The framed size of records `lsns` with `samplePayload`'s payloads.
    private static func framedSize(_ lsns: ClosedRange<UInt64>) -> Int {
        lsns.reduce(0) { $0 + WALFrame.size(payloadCount: samplePayload($1).count) }
    }

    /// Every payload a log opened on `disk` replays.
    private static func payloads(_ disk: SimulatedFileSystem) throws -> [[UInt8]] {
        try replayAll(Self.open(disk)).map(\.payload)
    }

    /// After a batch the writer zeros ahead of the records, and the next batch overwrites those zeros in place:
    /// the file stays one chunk long while the records grow inside it.
    @Test func batchesOverwriteTheZerosWrittenAhead() throws {
        let disk = SimulatedFileSystem()
        let wal = try Self.open(disk)
        wal.start()
        _ = wal.enqueue(samplePayload(1))
        wal.writePending()
        #expect(try disk.readAll(Self.segment).count == Self.framedSize(1...1) + 256)
        _ = wal.enqueue(samplePayload(2))
        wal.writePending()
        let bytes = try disk.readAll(Self.segment)
        #expect(bytes.count == Self.framedSize(1...1) + 256)
        #expect(bytes[Self.framedSize(1...2)...].allSatisfy { $0 == 0 })
        #expect(wal.statistics.zeroedBytes == 256)
        #expect(try Self.payloads(disk) == [samplePayload(1), samplePayload(2)])
    }

    /// Zeros after the last synced frame are a clean end: the records are all there, the file keeps its zeros
    /// (nothing is cut), and new records go where the old ones end.
    @Test func zerosAfterTheLastSyncedFrameAreACleanEnd() async throws {
        let disk = SimulatedFileSystem()
        let wal = try Self.open(disk)
        wal.start()
        for lsn in UInt64(1)...3 {
            _ = wal.enqueue(samplePayload(lsn))
            wal.writePending()
        }
        let fileSize = try disk.readAll(Self.segment).count
        #expect(fileSize > Self.framedSize(1...3))
        let reopened = try Self.open(disk)
        #expect(reopened.lastLSN == 3)
        #expect(try disk.readAll(Self.segment).count == fileSize)
        reopened.start()
        let lsn = reopened.enqueue(samplePayload(4))
        reopened.writePending()
        try await reopened.waitUntilDurable(lsn)
        #expect(try Self.payloads(disk) == (1...4).map { samplePayload($0) })
    }

    /// A crash while the zeros ahead are unsynced leaves any prefix of them (and a garbled end): every synced
    /// record survives, and the log goes on writing after them.
    @Test func aCrashWithAPartiallyZeroedTailKeepsEverySyncedRecord() async throws {
        for seed in UInt64(1)...40 {
            var random = SeededRandom(seed: seed)
            let disk = SimulatedFileSystem()
            let wal = try Self.open(disk, zeroAhead: 64)
            wal.start()
            for lsn in UInt64(1)...5 {
                _ = wal.enqueue(samplePayload(lsn))
                wal.writePending()
            }
            let survivor = disk.crash(using: &random, garbleRate: 0.5)
            let reopened = try Self.open(survivor, zeroAhead: 64)
            #expect(reopened.lastLSN == 5, "seed \(seed)")
            reopened.start()
            let lsn = reopened.enqueue(samplePayload(6))
            reopened.writePending()
            try await reopened.waitUntilDurable(lsn)
            #expect(try Self.payloads(survivor) == (1...6).map { samplePayload($0) }, "seed \(seed)")
        }
    }

    /// A crash in the middle of writing a batch into zeroed blocks (its sync lost) tears it anywhere: the synced
    /// records survive, and the torn one is cut off as a torn tail, never reported as damage.
    @Test func aBatchTornInsideTheZerosIsCutOff() async throws {
        for seed in UInt64(1)...40 {
            var random = SeededRandom(seed: seed)
            let disk = SimulatedFileSystem()
            let wal = try Self.open(disk, zeroAhead: 4096)
            wal.start()
            for lsn in UInt64(1)...2 {
                _ = wal.enqueue(samplePayload(lsn))
                wal.writePending()
            }
            disk.loseSyncs()
            for lsn in UInt64(3)...5 {
                _ = wal.enqueue(samplePayload(lsn, length: 200))
            }
            wal.writePending()
            let survivor = disk.crash(using: &random, garbleRate: 0.5)
            let reopened = try Self.open(survivor, zeroAhead: 4096)
            let payloads = try replayAll(reopened).map(\.payload)
            #expect(Array(payloads.prefix(2)) == [samplePayload(1), samplePayload(2)], "seed \(seed)")
            #expect(payloads.count <= 5, "seed \(seed)")
            reopened.start()
            let lsn = reopened.enqueue([0xAB])
            reopened.writePending()
            try await reopened.waitUntilDurable(lsn)
            #expect(try Self.payloads(survivor) == payloads + [[0xAB]], "seed \(seed)")
        }
    }

    /// Zeros where a frame in the middle was (the log's bytes lost before valid frames) are damage, never a clean
    /// end that would drop the acknowledged records after them.
    @Test func zerosBeforeValidFramesAreDamage() throws {
        let disk = SimulatedFileSystem()
        let wal = try Self.open(disk, zeroAhead: 0)
        wal.start()
        for lsn in UInt64(1)...4 {
            _ = wal.enqueue(samplePayload(lsn))
        }
        wal.writePending()
        var bytes = try disk.readAll(Self.segment)
        let second = Self.framedSize(1...1)
        for offset in second..<(second + Self.framedSize(2...2)) { bytes[offset] = 0 }
        bytes.append(contentsOf: repeatElement(0, count: 64))
        try disk.remove(Self.segment)
        let handle = try disk.open(Self.segment, mode: .createNew)
        try disk.writeAll(handle, bytes)
        try disk.synchronize(handle, metadata: true)
        let error = try #require(throws: StorageError.self) { _ = try Self.open(disk) }
        #expect(error.code == .damagedSegment)
        #expect(error.offset == second)
    }

    /// A segment is cut to its records when it is rolled and when the log closes, so a closed log has no zeros in
    /// any file (what an older build reads), and the rolled segments read back whole.
    @Test func rolledAndClosedSegmentsAreCutToTheirRecords() async throws {
        let disk = SimulatedFileSystem()
        let wal = try Self.open(disk, zeroAhead: 128, segmentBytes: 300)
        wal.start()
        for lsn in UInt64(1)...40 {
            _ = wal.enqueue(samplePayload(lsn))
            wal.writePending()
        }
        await wal.close()
        let segments = try WALRecovery.segments(in: "/wal", fileSystem: disk)
        #expect(segments.count > 3)
        for (index, segment) in segments.enumerated() {
            let last = index + 1 < segments.count ? segments[index + 1].firstLSN - 1 : 40
            #expect(try disk.readAll(segment.path).count == Self.framedSize(segment.firstLSN...last), "\(segment)")
        }
        #expect(try Self.payloads(disk) == (1...40).map { samplePayload($0) })
    }

    /// A crash right after a roll keeps the rolled segment whole and cut, whatever the crash keeps of the new one.
    @Test func aCrashAfterARollRecoversEverySyncedRecord() throws {
        for seed in UInt64(1)...20 {
            var random = SeededRandom(seed: seed)
            let disk = SimulatedFileSystem()
            let wal = try Self.open(disk, zeroAhead: 128, segmentBytes: 300)
            wal.start()
            for lsn in UInt64(1)...25 {
                _ = wal.enqueue(samplePayload(lsn))
                wal.writePending()
            }
            let survivor = disk.crash(using: &random, garbleRate: 0.5)
            #expect(try Self.payloads(survivor) == (1...25).map { samplePayload($0) }, "seed \(seed)")
        }
    }

    /// With fsync `.off` nothing is zeroed ahead (no sync would gain from it): the file is exactly its records.
    @Test func noZerosWithoutSyncs() async throws {
        let disk = SimulatedFileSystem()
        var configuration = WALConfiguration.testing(.off)
        configuration.writer = .manual
        try disk.createDirectories("/wal")
        let wal = try WriteAheadLog(directory: "/wal", configuration: configuration, fileSystem: disk) { _ in }
        wal.start()
        _ = wal.enqueue(samplePayload(1))
        wal.writePending()
        #expect(try disk.readAll(Self.segment).count == Self.framedSize(1...1))
        #expect(wal.statistics.zeroedBytes == 0)
        await wal.close()
    }

    /// A disk with room for batches but not for a chunk of zeros: the failed zeroing is cut off, the log goes on
    /// appending and acknowledges every record, and the file holds exactly its records.
    @Test func aFailedZeroWriteIsCutOffAndTheLogGoesOn() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = WALConfiguration.testing(.batch)
        configuration.zeroAheadBytes = 4096
        let fileSystem = FaultyFileSystem(FaultyFileSystem.Plan(failingWritesAbove: 1024))
        let wal = try WriteAheadLog(directory: directory.path, configuration: configuration, fileSystem: fileSystem) {
            _ in
        }
        wal.start()
        for lsn in UInt64(1)...5 {
            try await wal.waitUntilDurable(wal.enqueue(samplePayload(lsn)))
        }
        #expect(wal.statistics.zeroedBytes == 0)
        #expect(try directory.contents(WALSegment.fileName(firstLSN: 1)).count == Self.framedSize(1...5))
        await wal.close()
        let reopened = try WriteAheadLog(directory: directory.path, configuration: configuration) { _ in }
        #expect(try replayAll(reopened).map(\.payload) == (1...5).map { samplePayload($0) })
    }

    /// On the real file system, a log written with zeros ahead and abandoned without closing reopens with its
    /// records, keeps its zero tail, goes on after the records, and is cut to them when closed.
    @Test func posixZeroTailReopens() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = WALConfiguration.testing(.batch)
        configuration.zeroAheadBytes = 4096
        var manual = configuration
        manual.writer = .manual
        do {
            let wal = try WriteAheadLog(
                directory: directory.path, configuration: manual, fileSystem: PosixFileSystem()
            ) { _ in }
            wal.start()
            for lsn in UInt64(1)...10 {
                let written = wal.enqueue(samplePayload(lsn))
                wal.writePending()
                try await wal.waitUntilDurable(written)
            }
        }
        let name = WALSegment.fileName(firstLSN: 1)
        #expect(try directory.contents(name).count >= 4096)
        let reopened = try WriteAheadLog(directory: directory.path, configuration: configuration) { _ in }
        #expect(reopened.lastLSN == 10)
        reopened.start()
        try await reopened.waitUntilDurable(reopened.enqueue(samplePayload(11)))
        await reopened.close()
        #expect(try directory.contents(name).count == Self.framedSize(1...11))
        let again = try WriteAheadLog(directory: directory.path, configuration: configuration) { _ in }
        #expect(try replayAll(again).map(\.payload) == (1...11).map { samplePayload($0) })
    }
}
