/// Durable point-in-time copies of the node's state, so recovery replays only the log after the newest one.
///
/// A snapshot is written to `snapshot-<lsn>.snap.tmp` through buffered writes with a CRC-32C trailer, fsynced,
/// atomically renamed to `snapshot-<lsn>.snap`, and the directory is fsynced; only then are older snapshots and
/// leftover temporary files removed. A crash at any point leaves either the old snapshot or the new one complete,
/// and temporary files are never mistaken for snapshots.
public struct SnapshotStore: Sendable {
    /// The directory holding the snapshot files.
    public let directory: String
    let fileSystem: any FileSystem

    /// Opens (creating) the snapshot directory.
    public init(directory: String) throws(StorageError) {
        try self.init(directory: directory, fileSystem: PosixFileSystem())
    }

    /// Opens the snapshot directory through `fileSystem`, so tests can inject faults.
    package init(directory: String, fileSystem: any FileSystem) throws(StorageError) {
        self.directory = directory
        self.fileSystem = fileSystem
        try fileSystem.createDirectory(directory)
    }

    /// Streams a snapshot covering the log through `lsn`: temp file, buffered writes, checksum trailer, fsync,
    /// atomic rename, directory fsync; older snapshots removed after success.
    ///
    /// - Throws: what `produce` throws (the temporary file is removed), or a `StorageError` for I/O failures.
    public func write(lsn: UInt64, _ produce: (inout SnapshotWriter) throws -> Void) throws {
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
        try self.removeOlder(than: lsn)
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
        let handle = try self.fileSystem.open(snapshot.path, mode: .read)
        defer { try? self.fileSystem.close(handle) }
        let size = try self.fileSystem.size(of: handle)
        let headerSize = SnapshotFormat.headerSize
        let trailerSize = SnapshotFormat.trailerSize
        guard size >= headerSize + trailerSize else {
            throw Self.damaged(snapshot.path, offset: 0, "it is only \(size) bytes long")
        }
        let header = try self.fileSystem.read(handle, count: headerSize)
        let payload = try self.fileSystem.read(handle, count: size - headerSize - trailerSize)
        let trailer = try self.fileSystem.read(handle, count: trailerSize)
        guard trailer.count == trailerSize else {
            throw Self.damaged(snapshot.path, offset: headerSize + payload.count, "it ends before its trailer")
        }
        let lsn = header.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self).littleEndian }
        guard Array(header[0..<8]) == SnapshotFormat.headerMagic, lsn == snapshot.lsn else {
            throw Self.damaged(snapshot.path, offset: 0, "its header is not a snapshot header for LSN \(snapshot.lsn)")
        }
        let fields = trailer.withUnsafeBytes { raw in
            (
                count: raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self).littleEndian,
                checksum: raw.loadUnaligned(fromByteOffset: 8, as: UInt32.self).littleEndian
            )
        }
        let trailerStart = headerSize + payload.count
        guard Array(trailer[12...]) == SnapshotFormat.trailerMagic, fields.count == UInt64(payload.count) else {
            throw Self.damaged(snapshot.path, offset: trailerStart, "its trailer is missing or has the wrong length")
        }
        var crc = CRC32C()
        crc.update(header)
        crc.update(payload)
        guard crc.value == fields.checksum else {
            throw Self.damaged(snapshot.path, offset: headerSize, "its checksum does not match its content")
        }
        return payload
    }

    /// Removes snapshots older than `lsn` and temporary files of interrupted writes up to `lsn`.
    private func removeOlder(than lsn: UInt64) throws(StorageError) {
        var removed = false
        for name in try self.fileSystem.contents(ofDirectory: self.directory) {
            let isOlder = SnapshotFormat.lsn(fileName: name).map { $0 < lsn } ?? false
            let isStale = SnapshotFormat.lsn(fileName: name, temporary: true).map { $0 <= lsn } ?? false
            if isOlder || isStale {
                try self.fileSystem.remove(self.directory + "/" + name)
                removed = true
            }
        }
        if removed {
            try self.fileSystem.synchronizeDirectory(self.directory)
        }
    }

    private static func damaged(_ path: String, offset: Int, _ reason: String) -> StorageError {
        StorageError(
            .damagedSnapshot,
            "Snapshot \(path) is damaged at offset \(offset): \(reason). The node will not start from it; restore "
                + "the data directory from a backup, or move this snapshot away if the write-ahead log still holds "
                + "every record since the previous snapshot.",
            path: path,
            offset: offset
        )
    }
}
