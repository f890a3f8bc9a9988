/// Durable point-in-time copies of the node's state, so recovery replays only the log after the newest one.
///
/// A snapshot is written to `snapshot-<lsn>.snap.tmp` through buffered writes with a CRC-32C trailer, fsynced,
/// atomically renamed to `snapshot-<lsn>.snap`, and the directory is fsynced; only then are snapshots beyond the
/// newest `retained` and leftover temporary files removed. A crash at any point leaves either the old snapshot or the
/// new one complete, and temporary files are never mistaken for snapshots. Keeping more than one lets recovery fall
/// back to an older snapshot (plus the log after it) when the newest is damaged; a damaged one is renamed to
/// `<name>.broken` by `quarantine(_:)`, never deleted.
public struct SnapshotStore: Sendable {
    /// The directory holding the snapshot files.
    public let directory: String
    /// How many of the newest snapshots a write keeps (at least 1).
    public let retained: Int
    let fileSystem: any FileSystem

    /// Opens (creating) the snapshot directory; each write keeps the newest `retained` snapshots.
    public init(directory: String, retaining retained: Int = 1) throws(StorageError) {
        try self.init(directory: directory, retaining: retained, fileSystem: PosixFileSystem())
    }

    /// Opens the snapshot directory through `fileSystem`, so tests can inject faults.
    package init(directory: String, retaining retained: Int = 1, fileSystem: any FileSystem) throws(StorageError) {
        self.directory = directory
        self.retained = max(1, retained)
        self.fileSystem = fileSystem
        try fileSystem.createDirectory(directory)
    }

    /// Streams a snapshot covering the log through `lsn`: temp file, buffered writes, checksum trailer, fsync,
    /// atomic rename, directory fsync; snapshots beyond the newest `retained` removed after success. Returns the LSN
    /// of the oldest snapshot kept: the log must keep every record after it for recovery to fall back that far.
    ///
    /// - Throws: what `produce` throws (the temporary file is removed), or a `StorageError` for I/O failures.
    @discardableResult
    public func write(lsn: UInt64, _ produce: (inout SnapshotWriter) throws -> Void) throws -> UInt64 {
        let temporary = self.directory + "/" + SnapshotFormat.fileName(lsn: lsn) + ".tmp"
        let final = self.directory + "/" + SnapshotFormat.fileName(lsn: lsn)
        try? self.fileSystem.remove(temporary)
        let handle = try self.fileSystem.open(temporary, mode: .createNew)
        do {
            var writer = SnapshotWriter(fileSystem: self.fileSystem, handle: handle, lsn: lsn)
            try produce(&writer)
            try writer.finish()
            try self.fileSystem.close(handle)
        } catch {
            try? self.fileSystem.close(handle)
            try? self.fileSystem.remove(temporary)
            throw error
        }
        try self.fileSystem.rename(temporary, to: final)
        try self.fileSystem.synchronizeDirectory(self.directory)
        return try self.removeOlder(than: lsn)
    }

    /// Every snapshot file, newest first, without reading them (the reader checks each one's framing and checksum).
    public func all() throws(StorageError) -> [SnapshotInfo] {
        let names = try self.fileSystem.contents(ofDirectory: self.directory)
        var snapshots: [SnapshotInfo] = []
        for lsn in names.compactMap({ SnapshotFormat.lsn(fileName: $0) }).sorted(by: >) {
            let path = self.directory + "/" + SnapshotFormat.fileName(lsn: lsn)
            let handle = try self.fileSystem.open(path, mode: .read)
            defer { try? self.fileSystem.close(handle) }
            snapshots.append(SnapshotInfo(lsn: lsn, path: path, size: try self.fileSystem.size(of: handle)))
        }
        return snapshots
    }

    /// Renames a damaged snapshot to `<name>.broken` (durably), so it is kept for inspection but never read or
    /// removed again. Returns the new path.
    @discardableResult
    public func quarantine(_ snapshot: SnapshotInfo) throws(StorageError) -> String {
        let broken = snapshot.path + ".broken"
        try self.fileSystem.rename(snapshot.path, to: broken)
        try self.fileSystem.synchronizeDirectory(self.directory)
        return broken
    }

    /// The newest complete snapshot, or nil when there is none. Reads only the newest file's header and trailer.
    ///
    /// - Throws: `.damagedSnapshot` if the newest snapshot file is truncated or malformed (it was complete when
    ///   renamed, so this is disk damage and falling back silently could skip writes).
    public func latest() throws(StorageError) -> SnapshotInfo? {
        let names = try self.fileSystem.contents(ofDirectory: self.directory)
        guard let lsn = names.compactMap({ SnapshotFormat.lsn(fileName: $0) }).max() else { return nil }
        let path = self.directory + "/" + SnapshotFormat.fileName(lsn: lsn)
        let handle = try self.fileSystem.open(path, mode: .read)
        defer { try? self.fileSystem.close(handle) }
        let size = try self.fileSystem.size(of: handle)
        guard size >= SnapshotFormat.headerSize + SnapshotFormat.trailerSize else {
            throw Self.damaged(path, offset: 0, "it is only \(size) bytes long")
        }
        return SnapshotInfo(lsn: lsn, path: path, size: size)
    }

    /// The snapshot's payload, after checking its framing and checksum. O(snapshot size).
    ///
    /// - Throws: `.damagedSnapshot` naming the file and offset when the framing or checksum is wrong.
    public func read(_ snapshot: SnapshotInfo) throws(StorageError) -> [UInt8] {
        var reader = try self.reader(snapshot)
        var payload: [UInt8] = []
        _ = try reader.next(maximum: snapshot.size, appendingTo: &payload)
        try reader.finish()
        return payload
    }

    /// A reader of the snapshot's payload in chunks, for snapshots too large to hold twice.
    /// - Throws: `.damagedSnapshot` when the header is wrong (the trailer and checksum are checked by `finish()`).
    public func reader(_ snapshot: SnapshotInfo) throws(StorageError) -> SnapshotReader {
        try SnapshotReader(snapshot, fileSystem: self.fileSystem)
    }

    /// Removes snapshots older than the newest `retained` up to `lsn`, and temporary files of interrupted writes up
    /// to `lsn`. Returns the LSN of the oldest snapshot kept.
    private func removeOlder(than lsn: UInt64) throws(StorageError) -> UInt64 {
        let names = try self.fileSystem.contents(ofDirectory: self.directory)
        let kept = names.compactMap { SnapshotFormat.lsn(fileName: $0) }.filter { $0 <= lsn }.sorted(by: >)
            .prefix(self.retained)
        let oldestKept = kept.last ?? lsn
        var removed = false
        for name in names {
            let isOlder = SnapshotFormat.lsn(fileName: name).map { $0 < oldestKept } ?? false
            let isStale = SnapshotFormat.lsn(fileName: name, temporary: true).map { $0 <= lsn } ?? false
            if isOlder || isStale {
                try self.fileSystem.remove(self.directory + "/" + name)
                removed = true
            }
        }
        if removed {
            try self.fileSystem.synchronizeDirectory(self.directory)
        }
        return oldestKept
    }

    static func damaged(_ path: String, offset: Int, _ reason: String) -> StorageError {
        StorageError(
            .damagedSnapshot,
            "Snapshot \(path) is damaged at offset \(offset): \(reason). The node will not start from it; it "
                + "starts from an older snapshot when the write-ahead log still holds every record after that one, "
                + "and otherwise the data directory must be restored from a backup.",
            path: path,
            offset: offset
        )
    }
}
