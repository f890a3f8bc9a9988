import HearthCluster
import HearthCore
import HearthStorage
import HearthSystem

/// One Raft group's latest snapshot on disk: a `SnapshotStore` (temporary file, fsync, rename, directory fsync,
/// checksum; older files removed once a newer one is durable) whose files hold the snapshot's Raft metadata (index,
/// term, replica set) followed by its data. Writes and reads go one at a time, so a read never meets a file being
/// replaced. A shard's shelf is in `ShardSnapshotStore`; the member list has its own.
final class RaftSnapshotShelf: Sendable {
    private let store: SnapshotStore
    private let lock = Lock(())
    /// What the shelf holds, for error messages (`shard 3`, `the member list`).
    private let name: String

    /// Opens (creating) the snapshot directory `directory` on `fileSystem`.
    /// - Throws: `StorageError` when it cannot be created.
    init(directory: String, name: String, fileSystem: any FileSystem = PosixFileSystem()) throws {
        self.store = try SnapshotStore(directory: directory, fileSystem: fileSystem)
        self.name = name
    }

    /// Stores `snapshot` as the latest, durably, before returning.
    /// - Throws: `StorageError` when it cannot be written.
    func write(_ snapshot: RaftSnapshot) throws {
        var header: [UInt8] = []
        snapshot.metadata.encode(to: &header)
        try self.lock.withLock { _ in
            try self.store.write(lsn: snapshot.metadata.index) { writer in
                try writer.write(header)
                try writer.write(snapshot.data)
            }
        }
    }

    /// The latest stored snapshot, or nil when there is none.
    /// - Throws: `StorageError` when the file is damaged; `CommitRecordError` when its metadata cannot be read.
    func latest() throws -> RaftSnapshot? {
        let bytes = try self.lock.withLock { _ -> [UInt8]? in
            guard let info = try self.store.latest() else { return nil }
            return try self.store.read(info)
        }
        guard let bytes else { return nil }
        var reader = BinaryReader(bytes: bytes)
        do {
            let metadata = try RaftSnapshotMetadata(from: &reader)
            return RaftSnapshot(metadata: metadata, data: Array(bytes[reader.offset...]))
        } catch {
            throw CommitRecordError("\(self.name)'s snapshot file has unreadable Raft metadata: \(error.detail)")
        }
    }

    /// The Raft index of the latest stored snapshot (0 when there is none), read from the file's name.
    func latestIndex() throws -> UInt64 {
        try self.lock.withLock { _ in try self.store.latest()?.lsn ?? 0 }
    }
}
