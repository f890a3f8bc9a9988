import HearthCore
import HearthTestKit
import Testing

@testable import HearthCluster

@Suite struct RaftLogRecordTests {
    @Test func everyKindRoundTrips() throws {
        let records: [RaftLogRecord] = [
            .hardState(group: 3, bytes: [1, 2, 3]),
            .entries(group: 70_000, firstIndex: 42, entries: [[9], [], [7, 7, 7]]),
            .entries(group: 0, firstIndex: 1, entries: []),
            .snapshot(group: 15, index: 1 << 40, metadata: [0xFF]),
        ]
        for record in records {
            #expect(try RaftLogRecord(decoding: record.encoded()) == record)
        }
    }

    @Test func randomRecordsRoundTrip() throws {
        var random = SeededRandom(seed: 11)
        func bytes() -> [UInt8] {
            (0..<Int.random(in: 0..<20, using: &random)).map { _ in .random(in: 0...255, using: &random) }
        }
        for _ in 0..<500 {
            let group = Int.random(in: 0..<100, using: &random)
            let record: RaftLogRecord
            switch Int.random(in: 0..<3, using: &random) {
            case 0: record = .hardState(group: group, bytes: bytes())
            case 1:
                record = .entries(
                    group: group, firstIndex: .random(in: 1...1_000, using: &random),
                    entries: (0..<Int.random(in: 0..<5, using: &random)).map { _ in bytes() })
            default: record = .snapshot(group: group, index: .random(in: 0...1_000, using: &random), metadata: bytes())
            }
            #expect(try RaftLogRecord(decoding: record.encoded()) == record)
        }
    }

    @Test func damagedRecordsAreRefusedNotSkipped() {
        let good = RaftLogRecord.entries(group: 1, firstIndex: 5, entries: [[1, 2], [3]]).encoded()
        #expect(throws: BinaryDecodingError.self) { try RaftLogRecord(decoding: Array(good.dropLast())) }
        #expect(throws: BinaryDecodingError.self) { try RaftLogRecord(decoding: good + [0]) }
        var otherFormat = good
        otherFormat[0] = 2
        #expect(throws: BinaryDecodingError.self) { try RaftLogRecord(decoding: otherFormat) }
        var unknownKind = good
        unknownKind[1] = 9
        #expect(throws: BinaryDecodingError.self) { try RaftLogRecord(decoding: unknownKind) }
        var hugeCount = RaftLogRecord.entries(group: 1, firstIndex: 5, entries: []).encoded()
        hugeCount.replaceSubrange((hugeCount.count - 4)..., with: [0xFF, 0xFF, 0xFF, 0x7F])
        #expect(throws: BinaryDecodingError.self) { try RaftLogRecord(decoding: hugeCount) }
    }
}
