/// The sink a snapshot producer streams its payload into: buffered (1 MiB) writes to the temporary file, with the
/// checksum computed on the way.
public struct SnapshotWriter {
    static let bufferCapacity = 1 << 20

    let fileSystem: any FileSystem
    let handle: FileHandle
    private var buffer: [UInt8] = []
    private var checksum = CRC32C()
    /// Payload bytes accepted so far.
    private(set) var payloadCount: UInt64 = 0

    init(fileSystem: any FileSystem, handle: FileHandle, lsn: UInt64) {
        self.fileSystem = fileSystem
        self.handle = handle
        self.buffer.reserveCapacity(Self.bufferCapacity)
        let header = SnapshotFormat.header(lsn: lsn)
        self.checksum.update(header)
        self.buffer.append(contentsOf: header)
    }

    /// Appends payload bytes. O(n); writes to the file once the buffer holds 1 MiB.
    public mutating func write(_ bytes: UnsafeRawBufferPointer) throws(StorageError) {
        self.checksum.update(bytes)
        self.payloadCount += UInt64(bytes.count)
        if self.buffer.count + bytes.count > Self.bufferCapacity {
            try self.flush()
        }
        if bytes.count >= Self.bufferCapacity {
            try self.fileSystem.writeAll(self.handle, bytes)
        } else {
            self.buffer.append(contentsOf: bytes)
        }
    }

    /// Appends payload bytes. O(n); writes to the file once the buffer holds 1 MiB.
    public mutating func write(_ bytes: [UInt8]) throws(StorageError) {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(StorageError) in try self.write(raw) }
        }
        try result.get()
    }

    /// Writes the trailer and everything buffered, then fsyncs the file.
    mutating func finish() throws(StorageError) {
        self.buffer.append(
            contentsOf: SnapshotFormat.trailer(payloadCount: self.payloadCount, checksum: self.checksum.value)
        )
        try self.flush()
        try self.fileSystem.synchronize(self.handle, metadata: true)
    }

    private mutating func flush() throws(StorageError) {
        guard !self.buffer.isEmpty else { return }
        try self.fileSystem.writeAll(self.handle, self.buffer)
        self.buffer.removeAll(keepingCapacity: true)
    }
}
