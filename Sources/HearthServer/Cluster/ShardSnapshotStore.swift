import HearthCluster
import HearthCore
import HearthStorage
import Synchronization

/// Each shard's latest Raft snapshot on disk: one `SnapshotStore` per shard under the node's data directory
/// (`snapshots/shard-<n>/snapshot-<raft index>.snap`), so every file is written atomically (temporary file, fsync,
/// rename, directory fsync), checked by its checksum when read, and the older ones removed once a newer one is
/// durable.
///
/// A file holds the snapshot's Raft metadata (index, term, replica set) followed by its data
/// (`ShardSnapshotPayload`). A shard's writes and reads go one at a time, so a read never meets a file being
/// replaced.
final class ShardSnapshotStore: Sendable {
    /// One shard's store and the lock its file operations take.
    private final class Shelf: Sendable {
        let store: SnapshotStore
        let lock = Mutex(())

        init(store: SnapshotStore) {
            self.store = store
        }
    }

    private let shelves: [Shelf]

    /// Opens (creating) the snapshot directories of `shardCount` shards under `directory`, on `fileSystem`.
    /// - Throws: `StorageError` when a directory cannot be created.
    init(directory: String, shardCount: Int, fileSystem: any FileSystem = PosixFileSystem()) throws {
        let root = directory + "/snapshots"
        try fileSystem.createDirectory(root)
        self.shelves = try (0..<shardCount).map { shard in
            Shelf(store: try SnapshotStore(directory: root + "/shard-\(shard)", fileSystem: fileSystem))
        }
    }

    /// Stores `snapshot` as `shard`'s latest, durably, before returning.
    /// - Throws: `StorageError` when it cannot be written.
    func write(_ snapshot: RaftSnapshot, shard: Int) throws {
        let shelf = self.shelf(shard)
        var header: [UInt8] = []
        snapshot.metadata.encode(to: &header)
        try shelf.lock.withLock { _ in
            try shelf.store.write(lsn: snapshot.metadata.index) { writer in
                try writer.write(header)
                try writer.write(snapshot.data)
            }
        }
    }

    /// `shard`'s latest stored snapshot, or nil when it has none.
    /// - Throws: `StorageError` when the file is damaged; `CommitRecordError` when its metadata cannot be read.
    func latest(shard: Int) throws -> RaftSnapshot? {
        let shelf = self.shelf(shard)
        let bytes = try shelf.lock.withLock { _ -> [UInt8]? in
            guard let info = try shelf.store.latest() else { return nil }
            return try shelf.store.read(info)
        }
        guard let bytes else { return nil }
        var reader = BinaryReader(bytes: bytes)
        do {
            let metadata = try RaftSnapshotMetadata(from: &reader)
            return RaftSnapshot(metadata: metadata, data: Array(bytes[reader.offset...]))
        } catch {
            throw CommitRecordError("shard \(shard)'s snapshot file has unreadable Raft metadata: \(error.detail)")
        }
    }

    /// The Raft index of `shard`'s latest stored snapshot (0 when it has none), read from the file's name.
    func latestIndex(shard: Int) throws -> UInt64 {
        let shelf = self.shelf(shard)
        return try shelf.lock.withLock { _ in try shelf.store.latest()?.lsn ?? 0 }
    }

    private func shelf(_ shard: Int) -> Shelf {
        guard self.shelves.indices.contains(shard) else {
            preconditionFailure("shard \(shard) has no snapshot store; the node has \(self.shelves.count) shards")
        }
        return self.shelves[shard]
    }
}
