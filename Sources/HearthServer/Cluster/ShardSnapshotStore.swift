import HearthCluster
import HearthStorage

/// Each shard's latest Raft snapshot on disk: one `RaftSnapshotShelf` per shard under the node's data directory
/// (`snapshots/shard-<n>/snapshot-<raft index>.snap`), each file the snapshot's Raft metadata followed by its data
/// (`ShardSnapshotPayload`).
final class ShardSnapshotStore: Sendable {
    private let shelves: [RaftSnapshotShelf]

    /// Opens (creating) the snapshot directories of `shardCount` shards under `directory`, on `fileSystem`.
    /// - Throws: `StorageError` when a directory cannot be created.
    init(directory: String, shardCount: Int, fileSystem: any FileSystem = PosixFileSystem()) throws {
        let root = directory + "/snapshots"
        try fileSystem.createDirectory(root)
        self.shelves = try (0..<shardCount).map { shard in
            try RaftSnapshotShelf(
                directory: root + "/shard-\(shard)", name: "shard \(shard)", fileSystem: fileSystem)
        }
    }

    /// Stores `snapshot` as `shard`'s latest, durably, before returning.
    /// - Throws: `StorageError` when it cannot be written.
    func write(_ snapshot: RaftSnapshot, shard: Int) throws {
        try self.shelf(shard).write(snapshot)
    }

    /// `shard`'s latest stored snapshot, or nil when it has none.
    /// - Throws: `StorageError` when the file is damaged; `CommitRecordError` when its metadata cannot be read.
    func latest(shard: Int) throws -> RaftSnapshot? {
        try self.shelf(shard).latest()
    }

    /// The Raft index of `shard`'s latest stored snapshot (0 when it has none), read from the file's name.
    func latestIndex(shard: Int) throws -> UInt64 {
        try self.shelf(shard).latestIndex()
    }

    private func shelf(_ shard: Int) -> RaftSnapshotShelf {
        guard self.shelves.indices.contains(shard) else {
            preconditionFailure("shard \(shard) has no snapshot store; the node has \(self.shelves.count) shards")
        }
        return self.shelves[shard]
    }
}
