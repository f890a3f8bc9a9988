import HearthCluster
import HearthCore
import HearthDatabase
import HearthStorage
import HearthSystem

/// One Raft group's newest snapshots on disk: a `SnapshotStore` (temporary file, fsync, rename, directory fsync,
/// checksum; files beyond the newest `retaining` removed once a newer one is durable) whose files hold the
/// snapshot's Raft metadata (index, term, replica set) followed by its data. Writes and reads go one at a time, so a
/// read never meets a file being replaced. A shard's shelf is in `ShardSnapshotStore` (keeping two, so recovery can
/// fall back from a damaged newest one); the member list has its own (keeping one).
final class RaftSnapshotShelf: Sendable {
    private let store: SnapshotStore
    private let lock = Lock(())
    /// What the shelf holds, for error messages (`shard 3`, `the member list`).
    private let name: String

    /// Opens (creating) the snapshot directory `directory` on `fileSystem`; each write keeps the newest `retaining`
    /// snapshots.
    /// - Throws: `StorageError` when it cannot be created.
    init(directory: String, name: String, retaining: Int = 1, fileSystem: any FileSystem = PosixFileSystem()) throws {
        self.store = try SnapshotStore(directory: directory, retaining: retaining, fileSystem: fileSystem)
        self.name = name
    }

    /// Stores `snapshot` as the latest, durably, before returning. Returns the Raft index of the oldest snapshot
    /// kept: the group's log must keep every entry after it for recovery to fall back that far.
    /// - Throws: `StorageError` when it cannot be written.
    @discardableResult
    func write(_ snapshot: RaftSnapshot) throws -> UInt64 {
        var header: [UInt8] = []
        snapshot.metadata.encode(to: &header)
        return try self.lock.withLock { _ in
            try self.store.write(lsn: snapshot.metadata.index) { writer in
                try writer.write(header)
                try writer.write(snapshot.data)
            }
        }
    }

    /// The latest stored snapshot, or nil when there is none.
    /// - Throws: `StorageError` when the file is damaged; `CommitRecordError` when its metadata cannot be read.
    func latest() throws -> RaftSnapshot? {
        guard let info = try self.lock.withLock({ _ in try self.store.latest() }) else { return nil }
        return try self.read(info)
    }

    /// Every stored snapshot file, newest first, without reading them.
    /// - Throws: `StorageError` when the directory cannot be listed.
    func stored() throws -> [SnapshotInfo] {
        try self.lock.withLock { _ in try self.store.all() }
    }

    /// Renames a damaged snapshot file to `<name>.broken`, kept for inspection and never read again; returns the
    /// new path.
    /// - Throws: `StorageError` when it cannot be renamed.
    func quarantine(_ info: SnapshotInfo) throws -> String {
        try self.lock.withLock { _ in try self.store.quarantine(info) }
    }

    /// The snapshot in the file `info` names.
    /// - Throws: `StorageError` when the file is damaged; `CommitRecordError` when its metadata cannot be read.
    func read(_ info: SnapshotInfo) throws -> RaftSnapshot {
        let bytes = try self.lock.withLock { _ in try self.store.read(info) }
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
