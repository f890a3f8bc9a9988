import HearthStorage
import HearthTestKit
import Testing

@Suite struct SnapshotStoreTests {
    private static func payload(_ count: Int, seed: UInt64) -> [UInt8] {
        var random = SeededRandom(seed: seed)
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
    }

    /// A payload larger than the 1 MiB buffer, written in uneven pieces, reads back byte for byte.
    @Test func writesAndReadsBackLargePayload() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try SnapshotStore(directory: directory.path)
        #expect(try store.latest() == nil)
        let payload = Self.payload(2_500_000, seed: 7)
        try store.write(lsn: 42) { writer in
            var offset = 0
            var piece = 1
            while offset < payload.count {
                let end = min(payload.count, offset + piece)
                try writer.write(Array(payload[offset..<end]))
                offset = end
                piece = piece * 3 % 1_500_007 + 1
            }
        }
        let latest = try #require(try store.latest())
        #expect(latest.lsn == 42)
        #expect(latest.size == payload.count + 32)
        #expect(latest.path == directory.child("snapshot-00000000000000000042.snap"))
        #expect(try store.read(latest) == payload)
    }

    /// A store retaining two keeps the newest two, reports the older one's LSN, lists them newest first, and a
    /// quarantined snapshot becomes `<name>.broken`, which is neither listed nor removed by later writes.
    @Test func retainsTheNewestTwoAndQuarantinesWithoutDeleting() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try SnapshotStore(directory: directory.path, retaining: 2)
        #expect(try store.write(lsn: 10) { try $0.write([1]) } == 10)
        #expect(try store.write(lsn: 20) { try $0.write([2, 2]) } == 10)
        #expect(try store.write(lsn: 30) { try $0.write([3, 3, 3]) } == 20)
        #expect(try store.all().map(\.lsn) == [30, 20])
        let newest = try #require(try store.all().first)
        #expect(try store.quarantine(newest) == newest.path + ".broken")
        #expect(try store.all().map(\.lsn) == [20])
        #expect(try store.write(lsn: 40) { try $0.write([4]) } == 20)
        #expect(
            try directory.fileNames() == [
                "snapshot-00000000000000000020.snap", "snapshot-00000000000000000030.snap.broken",
                "snapshot-00000000000000000040.snap",
            ])
    }

    @Test func latestIsNewestAndOlderSnapshotsAreRemoved() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try SnapshotStore(directory: directory.path)
        try store.write(lsn: 10) { try $0.write([1]) }
        try store.write(lsn: 20) { try $0.write([2, 2]) }
        let latest = try #require(try store.latest())
        #expect(latest.lsn == 20)
        #expect(try store.read(latest) == [2, 2])
        #expect(try directory.fileNames() == ["snapshot-00000000000000000020.snap"])
    }

    /// A producer that throws leaves no file behind; a stray temporary file never counts as a snapshot.
    @Test func interruptedWritesAreIgnored() throws {
        struct Interrupted: Error {}
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try SnapshotStore(directory: directory.path)
        try store.write(lsn: 5) { try $0.write([5]) }
        #expect(throws: Interrupted.self) {
            try store.write(lsn: 9) { writer in
                try writer.write([9, 9, 9])
                throw Interrupted()
            }
        }
        #expect(try directory.fileNames() == ["snapshot-00000000000000000005.snap"])
        try directory.replace("snapshot-00000000000000000099.snap.tmp", with: [1, 2, 3])
        let latest = try #require(try store.latest())
        #expect(latest.lsn == 5)
        #expect(try store.read(latest) == [5])
        try store.write(lsn: 100) { try $0.write([1, 0, 0]) }
        #expect(try directory.fileNames() == ["snapshot-00000000000000000100.snap"])
    }

    @Test func checksumDamageIsDetected() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try SnapshotStore(directory: directory.path)
        let payload = Self.payload(10_000, seed: 11)
        try store.write(lsn: 3) { try $0.write(payload) }
        let latest = try #require(try store.latest())
        let name = "snapshot-00000000000000000003.snap"
        let original = try directory.contents(name)
        for position in [0, 9, 16, 5_000, original.count - 20, original.count - 1] {
            var bytes = original
            bytes[position] ^= 0x10
            try directory.replace(name, with: bytes)
            let error = try #require(throws: StorageError.self, "flipped byte \(position)") {
                try store.read(latest)
            }
            #expect(error.code == .damagedSnapshot)
            #expect(error.path == latest.path)
        }
        try directory.replace(name, with: Array(original.dropLast(3)))
        let truncated = SnapshotInfo(lsn: 3, path: latest.path, size: original.count - 3)
        #expect(throws: StorageError.self) { try store.read(truncated) }
        try directory.replace(name, with: [1, 2])
        #expect(throws: StorageError.self) { try store.latest() }
    }

    /// Read in chunks, the payload comes back in order; damage anywhere in it shows at `finish()`.
    @Test func chunkedReadsGiveThePayloadAndCheckItAtTheEnd() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try SnapshotStore(directory: directory.path)
        let payload = Self.payload(100_000, seed: 13)
        try store.write(lsn: 8) { try $0.write(payload) }
        let latest = try #require(try store.latest())
        var reader = try store.reader(latest)
        var read: [UInt8] = []
        var chunk: [UInt8] = []
        while try reader.next(maximum: 4_096, appendingTo: &chunk) {
            #expect(chunk.count <= 4_096)
            read += chunk
            chunk.removeAll(keepingCapacity: true)
        }
        try reader.finish()
        #expect(read == payload)
        var appending = try store.reader(latest)
        var appended: [UInt8] = [9]
        while try appending.next(maximum: 3_000, appendingTo: &appended) {}
        try appending.finish()
        #expect(appended == [9] + payload)

        let name = "snapshot-00000000000000000008.snap"
        var damaged = try directory.contents(name)
        damaged[16 + 50_000] ^= 0x01
        try directory.replace(name, with: damaged)
        var damagedReader = try store.reader(latest)
        var ignored: [UInt8] = []
        while try damagedReader.next(maximum: 4_096, appendingTo: &ignored) {}
        do {
            try damagedReader.finish()
            Issue.record("a damaged payload passed its checksum")
        } catch {
            #expect(error.code == .damagedSnapshot)
        }
    }
}
