import HearthStorage
import HearthTestKit
import Testing

@testable import HearthDatabase
@testable import HearthReplication

/// A member's data directory records the shards and groups it was founded with, and refuses to open under others.
@Suite struct ClusterLayoutTests {
    static let grouped = ClusterLayout(router: ShardRouter(shardCount: 1, shardDepth: 2, hashBuckets: 16))
    static let ungrouped = ClusterLayout(router: ShardRouter(shardCount: 16, shardDepth: 2))

    /// The first open records the layout; the same layout opens again, another is refused naming both.
    @Test func aRecordedLayoutIsKept() throws {
        let directory = try TemporaryDirectory("cluster-layout")
        defer { directory.remove() }
        let fileSystem = PosixFileSystem()
        try Self.grouped.check(directory: directory.path, holdsData: false, fileSystem: fileSystem)
        try Self.grouped.check(directory: directory.path, holdsData: true, fileSystem: fileSystem)
        do {
            try Self.ungrouped.check(directory: directory.path, holdsData: true, fileSystem: fileSystem)
            Issue.record("another layout was accepted")
        } catch let error as ClusterLayoutError {
            #expect(error.description.contains("as 16 shards in 1 Raft group,"))
            #expect(error.description.contains("gives 16 shards in 16 Raft groups"))
        }
    }

    /// Data written before layouts were recorded has one group per shard: it opens ungrouped (and is recorded so),
    /// and is refused grouped.
    @Test func dataWithoutARecordHasOneGroupPerShard() throws {
        let directory = try TemporaryDirectory("cluster-layout-legacy")
        defer { directory.remove() }
        let fileSystem = PosixFileSystem()
        #expect(throws: ClusterLayoutError.self) {
            try Self.grouped.check(directory: directory.path, holdsData: true, fileSystem: fileSystem)
        }
        try Self.ungrouped.check(directory: directory.path, holdsData: true, fileSystem: fileSystem)
        #expect(throws: ClusterLayoutError.self) {
            try Self.grouped.check(directory: directory.path, holdsData: false, fileSystem: fileSystem)
        }
    }

    /// A file that does not hold a layout is refused, not overwritten.
    @Test func anUnreadableRecordIsRefused() throws {
        let directory = try TemporaryDirectory("cluster-layout-damaged")
        defer { directory.remove() }
        let fileSystem = PosixFileSystem()
        try fileSystem.replaceFile(directory.path + "/" + ClusterLayout.fileName, with: Array("{\"shards\": 4}".utf8))
        #expect(throws: ClusterLayoutError.self) {
            try Self.ungrouped.check(directory: directory.path, holdsData: false, fileSystem: fileSystem)
        }
    }
}
