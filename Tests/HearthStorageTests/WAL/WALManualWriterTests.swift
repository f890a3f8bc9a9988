import HearthStorage
import HearthTestKit
import Testing

/// A log in `WALWriterMode.manual` writes only when `writePending()` is called, on the caller's thread: what a
/// deterministic simulation needs to decide when a node's disk makes progress.
@Suite struct WALManualWriterTests {
    private static func open(_ disk: SimulatedFileSystem) throws -> WriteAheadLog {
        var configuration = WALConfiguration()
        configuration.writer = .manual
        try disk.createDirectories("/wal")
        return try WriteAheadLog(directory: "/wal", configuration: configuration, fileSystem: disk) { _ in }
    }

    @Test func nothingIsDurableUntilTheCallerWrites() async throws {
        let disk = SimulatedFileSystem()
        let wal = try Self.open(disk)
        wal.start()
        let first = wal.enqueue([1, 2, 3])
        let second = wal.enqueue([4])
        #expect(wal.durableLSN == 0)
        #expect(wal.writePending())
        #expect(wal.durableLSN == second)
        #expect(!wal.writePending())
        try await wal.waitUntilDurable(first)
        await wal.close()
        var random = SeededRandom(seed: 1)
        let reopened = try Self.open(disk.crash(using: &random))
        var payloads: [[UInt8]] = []
        try reopened.replay(after: 0) { payloads.append($0.payload) }
        #expect(payloads == [[1, 2, 3], [4]])
    }

    @Test func closeDrainsWhatIsPending() async throws {
        let disk = SimulatedFileSystem()
        let wal = try Self.open(disk)
        wal.start()
        let lsn = wal.enqueue([9])
        await wal.close()
        #expect(wal.durableLSN == lsn)
    }

    @Test func aCrashBeforeTheWriteLosesTheRecordAndATornTailIsCutOff() throws {
        var random = SeededRandom(seed: 7)
        let disk = SimulatedFileSystem()
        let wal = try Self.open(disk)
        wal.start()
        _ = wal.enqueue([1])
        wal.writePending()
        _ = wal.enqueue(Array(repeating: 2, count: 64))
        disk.loseSyncs()
        wal.writePending()
        let reopened = try Self.open(disk.crash(using: &random, garbleRate: 1))
        var payloads: [[UInt8]] = []
        try reopened.replay(after: 0) { payloads.append($0.payload) }
        #expect(payloads.first == [1])
        #expect(payloads.count <= 2)
    }
}
