import HearthStorage
import HearthTestKit
import Testing

@Suite struct WALRecoveryTests {
    private static let firstSegment = "wal-00000000000000000001.log"

    /// Writes records 1...count with the given payloads and returns the segment bytes and each record's offset.
    private static func writeLog(
        _ directory: TemporaryDirectory,
        payloads: [[UInt8]],
        segmentBytes: Int = 64 * 1024 * 1024
    ) async throws -> [Int] {
        let log = try WriteAheadLog(
            directory: directory.path,
            configuration: .testing(.off, segmentBytes: segmentBytes),
            onDurable: { _ in }
        )
        log.start()
        var last: UInt64 = 0
        for payload in payloads {
            last = log.enqueue(payload)
        }
        try await log.waitUntilDurable(last)
        await log.close()
        var offsets: [Int] = []
        var offset = 0
        for payload in payloads {
            offsets.append(offset)
            offset += 16 + payload.count
        }
        return offsets
    }

    /// Cutting the last record at every byte leaves the earlier records, truncates the file, and appends continue.
    @Test func tornTailIsTruncatedAtEveryCut() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let payloads = (1...4).map { samplePayload(UInt64($0), length: 12) }
        let offsets = try await Self.writeLog(directory, payloads: payloads)
        let full = try directory.contents(Self.firstSegment)
        let lastStart = try #require(offsets.last)
        for cut in lastStart..<full.count {
            try directory.replace(Self.firstSegment, with: Array(full[..<cut]))
            let log = try WriteAheadLog(directory: directory.path, configuration: .testing(), onDurable: { _ in })
            #expect(log.lastLSN == 3, "cut at \(cut)")
            #expect(try directory.contents(Self.firstSegment).count == lastStart, "cut at \(cut)")
            log.start()
            let lsn = log.enqueue([0xAB])
            #expect(lsn == 4, "cut at \(cut)")
            try await log.waitUntilDurable(lsn)
            await log.close()
            let reopened = try WriteAheadLog(directory: directory.path, configuration: .testing(), onDurable: { _ in })
            let records = try replayAll(reopened)
            #expect(records.map(\.payload) == Array(payloads[..<3]) + [[0xAB]], "cut at \(cut)")
            await reopened.close()
        }
    }

    /// A last record whose bytes were scrambled (checksum fails) with nothing valid after it is a torn tail too.
    @Test func scrambledLastRecordIsTruncated() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let offsets = try await Self.writeLog(directory, payloads: (1...3).map { samplePayload(UInt64($0)) })
        var bytes = try directory.contents(Self.firstSegment)
        let lastStart = try #require(offsets.last)
        bytes[bytes.count - 1] ^= 0x40
        try directory.replace(Self.firstSegment, with: bytes)
        let log = try WriteAheadLog(directory: directory.path, configuration: .testing(), onDurable: { _ in })
        #expect(log.lastLSN == 2)
        #expect(try directory.contents(Self.firstSegment).count == lastStart)
        await log.close()
    }

    /// A flipped byte in a middle record is damage, not a torn tail: opening throws and names file and offset.
    @Test func flippedByteInTheMiddleIsReported() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let offsets = try await Self.writeLog(directory, payloads: (1...10).map { samplePayload(UInt64($0)) })
        var random = SeededRandom(seed: 42)
        for target in [0, 3, 8] {
            let original = try directory.contents(Self.firstSegment)
            var bytes = original
            let position = Int.random(in: offsets[target]..<offsets[target + 1], using: &random)
            bytes[position] ^= 0x01
            try directory.replace(Self.firstSegment, with: bytes)
            let error = try #require(throws: StorageError.self, "seed 42, record \(target)") {
                _ = try WriteAheadLog(directory: directory.path, configuration: .testing(), onDurable: { _ in })
            }
            #expect(error.code == .damagedSegment)
            #expect(error.path == directory.child(Self.firstSegment))
            #expect(error.offset == offsets[target])
            #expect(error.message.contains(Self.firstSegment))
            #expect(error.message.contains("expected LSN \(target + 1)"))
            #expect(error.message.contains("after LSN \(target)"))
            try directory.replace(Self.firstSegment, with: original)
        }
    }

    /// Damage at the very end of an earlier segment is not a torn tail: later segments prove writes went on.
    @Test func damageInEarlierSegmentIsReported() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        _ = try await Self.writeLog(
            directory,
            payloads: (1...20).map { samplePayload(UInt64($0), length: 40) },
            segmentBytes: 100
        )
        let names = try directory.fileNames()
        #expect(names.count > 3)
        var bytes = try directory.contents(names[1])
        bytes.removeLast()
        try directory.replace(names[1], with: bytes)
        let error = try #require(throws: StorageError.self) {
            _ = try WriteAheadLog(directory: directory.path, configuration: .testing(), onDurable: { _ in })
        }
        #expect(error.code == .damagedSegment)
        #expect(error.path == directory.child(names[1]))
    }

    /// A missing middle segment leaves an LSN gap, which is reported rather than skipped.
    @Test func missingSegmentIsReportedAsGap() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        _ = try await Self.writeLog(
            directory,
            payloads: (1...20).map { samplePayload(UInt64($0), length: 40) },
            segmentBytes: 100
        )
        let names = try directory.fileNames()
        try directory.removeFile(names[1])
        let error = try #require(throws: StorageError.self) {
            _ = try WriteAheadLog(directory: directory.path, configuration: .testing(), onDurable: { _ in })
        }
        #expect(error.code == .damagedSegment)
    }

    /// Garbage appended after valid records followed by a valid record is damage, not a torn tail.
    @Test func badRecordFollowedByValidRecordIsReported() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let offsets = try await Self.writeLog(directory, payloads: (1...5).map { samplePayload(UInt64($0)) })
        var bytes = try directory.contents(Self.firstSegment)
        bytes[offsets[3] + 4] ^= 0xFF
        try directory.replace(Self.firstSegment, with: bytes)
        let error = try #require(throws: StorageError.self) {
            _ = try WriteAheadLog(directory: directory.path, configuration: .testing(), onDurable: { _ in })
        }
        #expect(error.offset == offsets[3])
    }
}
