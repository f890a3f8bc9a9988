/// Reads a snapshot file's payload in chunks, so a gigabyte snapshot is never held whole: checks the header when
/// opened, checksums each chunk as it is read, and checks the trailer and checksum in `finish()`. Nothing read may be
/// trusted until `finish()` returns (a reader of chunks must be ready to discard what it built from them).
public struct SnapshotReader: ~Copyable {
    private let fileSystem: any FileSystem
    private let handle: FileHandle
    private let path: String
    /// Payload bytes not read yet.
    private var remaining: Int
    private var checksum: CRC32C

    /// Opens `snapshot` and checks its header.
    /// - Throws: `.damagedSnapshot` when the file is too short or its header is not the snapshot's.
    init(_ snapshot: SnapshotInfo, fileSystem: any FileSystem) throws(StorageError) {
        let handle = try fileSystem.open(snapshot.path, mode: .read)
        let payloadCount: Int
        var checksum = CRC32C()
        do throws(StorageError) {
            let size = try fileSystem.size(of: handle)
            let framing = SnapshotFormat.headerSize + SnapshotFormat.trailerSize
            guard size >= framing else {
                throw SnapshotStore.damaged(snapshot.path, offset: 0, "it is only \(size) bytes long")
            }
            let header = try fileSystem.read(handle, count: SnapshotFormat.headerSize)
            guard header.count == SnapshotFormat.headerSize, Array(header[0..<8]) == SnapshotFormat.headerMagic,
                header.withUnsafeBytes({ $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self).littleEndian })
                    == snapshot.lsn
            else {
                throw SnapshotStore.damaged(
                    snapshot.path, offset: 0, "its header is not a snapshot header for LSN \(snapshot.lsn)")
            }
            checksum.update(header)
            payloadCount = size - framing
        } catch {
            try? fileSystem.close(handle)
            throw error
        }
        self.fileSystem = fileSystem
        self.handle = handle
        self.path = snapshot.path
        self.remaining = payloadCount
        self.checksum = checksum
    }

    deinit {
        try? self.fileSystem.close(self.handle)
    }

    /// Appends the next at most `maximum` bytes of the payload to `bytes`, read straight into its memory; false
    /// once all of it has been read. A caller that empties `bytes` (keeping its capacity) between chunks reads a
    /// large snapshot through one buffer, instead of fresh pages for the kernel to zero for every chunk.
    public mutating func next(maximum: Int, appendingTo bytes: inout [UInt8]) throws(StorageError) -> Bool {
        guard self.remaining > 0 else { return false }
        let count = min(max(maximum, 1), self.remaining)
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: count))
        let fileSystem = self.fileSystem
        let handle = self.handle
        let read = bytes.withUnsafeMutableBytes { raw in
            Result { () throws(StorageError) in
                try fileSystem.read(handle, filling: UnsafeMutableRawBufferPointer(rebasing: raw[start...]))
            }
        }
        guard try read.get() == count else {
            bytes.removeSubrange(start...)
            throw SnapshotStore.damaged(self.path, offset: 0, "it became shorter while it was read")
        }
        bytes.withUnsafeBytes { self.checksum.update(UnsafeRawBufferPointer(rebasing: $0[start...])) }
        self.remaining -= count
        return true
    }

    /// Checks the trailer: the payload's length and checksum.
    /// - Throws: `.damagedSnapshot` when part of the payload was not read, or the trailer or checksum is wrong.
    public consuming func finish() throws(StorageError) {
        guard self.remaining == 0 else {
            throw SnapshotStore.damaged(self.path, offset: 0, "its payload was not read to the end")
        }
        let payloadCount =
            try self.fileSystem.size(of: self.handle) - SnapshotFormat.headerSize
            - SnapshotFormat.trailerSize
        let trailerStart = SnapshotFormat.headerSize + payloadCount
        let trailer = try self.fileSystem.read(self.handle, count: SnapshotFormat.trailerSize)
        guard trailer.count == SnapshotFormat.trailerSize, Array(trailer[12...]) == SnapshotFormat.trailerMagic,
            trailer.withUnsafeBytes({ $0.loadUnaligned(fromByteOffset: 0, as: UInt64.self).littleEndian })
                == UInt64(payloadCount)
        else {
            throw SnapshotStore.damaged(
                self.path, offset: trailerStart, "its trailer is missing or has the wrong length")
        }
        let recorded = trailer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 8, as: UInt32.self).littleEndian }
        guard recorded == self.checksum.value else {
            throw SnapshotStore.damaged(
                self.path, offset: SnapshotFormat.headerSize, "its checksum does not match its content")
        }
    }
}
