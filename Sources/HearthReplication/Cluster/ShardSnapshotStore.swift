package import HearthCluster
package import HearthStorage

/// Each shard's two newest Raft snapshots on disk: one `RaftSnapshotShelf` per shard under the node's data directory
/// (`snapshots/shard-<n>/snapshot-<raft index>.snap`), each file the snapshot's Raft metadata followed by its data
/// (`ShardSnapshotPayload`). The group's log is compacted only through the older one, so a member whose newest
/// snapshot is damaged starts from the older one and the log after it (`ReplicatedDatabase.loadSnapshot`).
package final class ShardSnapshotStore: Sendable {
    /// How many snapshots each shard keeps: the newest, and one to fall back to.
    static let retained = 2

    private let shelves: [RaftSnapshotShelf]

    /// Opens (creating) the snapshot directories of `shardCount` shards under `directory`, on `fileSystem`.
    /// - Throws: `StorageError` when a directory cannot be created.
    package init(directory: String, shardCount: Int, fileSystem: any FileSystem = PosixFileSystem()) throws {
        let root = directory + "/snapshots"
        try fileSystem.createDirectory(root)
        self.shelves = try (0..<shardCount).map { shard in
            try RaftSnapshotShelf(
                directory: root + "/shard-\(shard)", name: "shard \(shard)", retaining: Self.retained,
                fileSystem: fileSystem)
        }
    }

    /// Stores `snapshot` as `shard`'s latest, durably, before returning. Returns the Raft index of the oldest
    /// snapshot the shard keeps: its group's log must keep every entry after it.
    /// - Throws: `StorageError` when it cannot be written.
    @discardableResult
    package func write(_ snapshot: RaftSnapshot, shard: Int) throws -> UInt64 {
        try self.shelf(shard).write(snapshot)
    }

    /// `shard`'s stored snapshot files, newest first, without reading them.
    /// - Throws: `StorageError` when the directory cannot be listed.
    func stored(shard: Int) throws -> [SnapshotInfo] {
        try self.shelf(shard).stored()
    }

    /// The snapshot of `shard` in the file `info` names.
    /// - Throws: `StorageError` when the file is damaged; `CommitRecordError` when its metadata cannot be read.
    func read(_ info: SnapshotInfo, shard: Int) throws -> RaftSnapshot {
        try self.shelf(shard).read(info)
    }

    /// Renames a damaged snapshot file of `shard` to `<name>.broken`; returns the new path.
    /// - Throws: `StorageError` when it cannot be renamed.
    func quarantine(_ info: SnapshotInfo, shard: Int) throws -> String {
        try self.shelf(shard).quarantine(info)
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
