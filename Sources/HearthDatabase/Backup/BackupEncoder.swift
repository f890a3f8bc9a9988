import HearthCore

/// Writes a backup file (`BackupFormat`) of a cut of the read view to any snapshot sink, record by record, so a
/// large database is never built as one buffer: the header, the trees exactly as a snapshot writes them, and the
/// trailer with the length and SHA-256 of everything before it.
enum BackupEncoder {
    /// Writes the backup of `roots` described by `header`, the trees cut at the header's shard depth.
    /// - Throws: the sink's first write error.
    static func encode(header: BackupHeader, roots: [String: Node], into sink: inout some SnapshotSink) throws {
        var output = SnapshotOutput(sink: HashingSink(sink: sink))
        output.write(text: header.text)
        SnapshotTrees.encode(roots: roots, depth: header.shardDepth, into: &output)
        if let error = output.error { throw error }
        var hashing = output.sink
        let trailer = BackupFormat.trailer(length: hashing.count, digest: hashing.digest.finalize())
        try trailer.withUnsafeBytes { try hashing.sink.write($0) }
        sink = hashing.sink
    }

    /// Passes bytes on to `sink`, hashing and counting them.
    private struct HashingSink<Sink: SnapshotSink>: SnapshotSink {
        var sink: Sink
        var digest = SHA256()
        var count: UInt64 = 0

        mutating func write(_ bytes: UnsafeRawBufferPointer) throws {
            try self.sink.write(bytes)
            self.digest.update(bytes)
            self.count += UInt64(bytes.count)
        }
    }
}
