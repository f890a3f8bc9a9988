import Foundation
import HearthCore
import HearthStorage
import HearthSystem
import HearthTestKit
import Testing

@testable import HearthDatabase
@testable import HearthNode
@testable import HearthServer

/// A node whose newest snapshot is damaged (bit flip or truncation) starts from the older snapshot it keeps plus the
/// log after it, renaming the damaged file to `<name>.broken`; when the log no longer reaches back that far it
/// refuses to start with a message naming the files and the backup to restore.
@Suite struct SnapshotFallbackTests {
    /// A data directory with two snapshots (after 10 and 20 writes) and 5 writes after the newer one, in small log
    /// segments so snapshots remove some of them.
    struct DataDirectory {
        let directory: TemporaryDirectory
        let expected: [String: Node]
        let older: SnapshotInfo
        let newer: SnapshotInfo

        var configuration: NodeConfiguration {
            var configuration = NodeConfiguration()
            configuration.dataDirectory = self.directory.path
            configuration.fsync = .off
            configuration.walSegmentBytes = 256
            return configuration
        }

        /// Builds it; `truncateThroughNewer` then drops the log segments the newer snapshot covers, as releases
        /// that kept one snapshot did.
        init(truncateThroughNewer: Bool = false) async throws {
            self.directory = try TemporaryDirectory()
            var configuration = NodeConfiguration()
            configuration.dataDirectory = self.directory.path
            configuration.fsync = .off
            configuration.walSegmentBytes = 256
            let database = try await Database.open(configuration: configuration, log: Log(level: .error))
            var snapshots: [UInt64] = []
            for (count, snapshot) in [(10, true), (10, true), (5, false)] {
                for _ in 0..<count {
                    let item = (database.view.capture()?.sequence ?? 0) + 1
                    _ = try await database.write(
                        namespace: "default", mutations: [try Fixture.set("items/i\(item)", #"{"n":\#(item)}"#)])
                }
                guard snapshot else { continue }
                let capture = try #require(database.view.capture())
                try database.writeSnapshot(capture)
                snapshots.append(capture.sequence)
            }
            if truncateThroughNewer {
                database.log.truncate(through: snapshots[1])
            }
            self.expected = try #require(database.view.capture()).roots
            #expect(self.expected["default"]?.child(Key(unchecked: "items")).childCount == 25)
            await database.close()
            let store = try SnapshotStore(directory: self.directory.child("snapshots"))
            let all = try store.all()
            try #require(all.map(\.lsn) == snapshots.reversed())
            self.newer = all[0]
            self.older = all[1]
        }

        /// The names in the snapshot directory.
        func snapshotFiles() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: self.directory.child("snapshots")).sorted()
        }

        /// Flips one byte in the middle of the newer snapshot's payload.
        func flipNewer() throws {
            var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: self.newer.path)))
            bytes[bytes.count / 2] ^= 0x5A
            try Data(bytes).write(to: URL(fileURLWithPath: self.newer.path))
        }

        /// Cuts the newer snapshot to `count` bytes.
        func truncateNewer(to count: Int) throws {
            let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: self.newer.path)))
            try Data(bytes.prefix(count)).write(to: URL(fileURLWithPath: self.newer.path))
        }

        /// Opens the node, checks it holds every acknowledged write and renamed the damaged snapshot, and closes it.
        func expectFallback() async throws {
            let database = try await Database.open(configuration: self.configuration, log: Log(level: .error))
            #expect(database.view.capture()?.roots == self.expected)
            await database.close()
            let newerName = URL(fileURLWithPath: self.newer.path).lastPathComponent
            let olderName = URL(fileURLWithPath: self.older.path).lastPathComponent
            #expect(try self.snapshotFiles() == [olderName, newerName + ".broken"].sorted())
        }
    }

    /// The snapshot store keeps its newest two snapshots and reports the older, so the log keeps what it needs.
    @Test func keepsTwoSnapshotsAndTheLogAfterTheOlder() async throws {
        let data = try await DataDirectory()
        defer { data.directory.remove() }
        #expect(try data.snapshotFiles().count == 2)
        let database = try await Database.open(configuration: data.configuration, log: Log(level: .error))
        #expect(database.log.firstSequence > 1)
        #expect(database.log.firstSequence <= data.older.lsn + 1)
        #expect(database.view.capture()?.roots == data.expected)
        await database.close()
    }

    /// A bit flip in the newest snapshot: the node starts from the older one plus the log, with every write.
    @Test func bitFlippedNewestFallsBackToOlder() async throws {
        let data = try await DataDirectory()
        defer { data.directory.remove() }
        try data.flipNewer()
        try await data.expectFallback()
    }

    /// A newest snapshot cut in half, or to less than its framing, is treated the same way.
    @Test(arguments: [0.5, 0.0])
    func truncatedNewestFallsBackToOlder(fraction: Double) async throws {
        let data = try await DataDirectory()
        defer { data.directory.remove() }
        try data.truncateNewer(to: max(10, Int(Double(data.newer.size) * fraction)))
        try await data.expectFallback()
    }

    /// When the log no longer holds the records after the older snapshot, the node refuses to start, names the
    /// damaged file and the log's start, points at a backup, and renames nothing.
    @Test func refusesWhenTheLogNoLongerCoversTheOlder() async throws {
        let data = try await DataDirectory(truncateThroughNewer: true)
        defer { data.directory.remove() }
        try data.flipNewer()
        let before = try data.snapshotFiles()
        let error = await #expect(throws: StorageError.self) {
            _ = try await Database.open(configuration: data.configuration, log: Log(level: .error))
        }
        let message = error?.message ?? ""
        #expect(error?.code == .damagedSnapshot)
        #expect(message.contains(data.newer.path))
        #expect(message.contains(data.older.path))
        #expect(message.contains("Restore the data directory from a backup"))
        #expect(try data.snapshotFiles() == before)
    }

    /// Both snapshots damaged and the log truncated after the first record: the node refuses, naming both files.
    @Test func refusesWhenEverySnapshotIsDamagedAndTheLogIsTruncated() async throws {
        let data = try await DataDirectory()
        defer { data.directory.remove() }
        try data.flipNewer()
        try Data([0x48, 0x52]).write(to: URL(fileURLWithPath: data.older.path))
        let error = await #expect(throws: StorageError.self) {
            _ = try await Database.open(configuration: data.configuration, log: Log(level: .error))
        }
        let message = error?.message ?? ""
        #expect(message.contains(data.newer.path) && message.contains(data.older.path))
        #expect(message.contains("no older snapshot is left"))
        #expect(message.contains("Restore the data directory from a backup"))
    }
}
