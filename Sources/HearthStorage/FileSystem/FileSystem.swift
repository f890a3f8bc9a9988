/// The file operations storage needs, behind a seam so tests can inject torn writes, short writes and failed fsyncs.
///
/// Rules every implementation keeps: `write` may write fewer bytes than asked (callers loop through `writeAll`);
/// a positioned write goes to its offset (the file grows when it ends past the end) and never moves the position
/// `read` continues from;
/// every failure throws a `StorageError` with code `.io` naming the operation and the path; `synchronize` returns
/// only once the file's data (and, with `metadata`, its metadata) is on stable storage.
package protocol FileSystem: Sendable {
    /// Opens `path`; `.append` and `.createNew` open for writing at the end of the file.
    func open(_ path: String, mode: FileOpenMode) throws(StorageError) -> FileHandle
    /// Writes a prefix of `bytes` at the end of the file and returns how many bytes were written (at least 1).
    func write(_ handle: FileHandle, _ bytes: UnsafeRawBufferPointer) throws(StorageError) -> Int
    /// Writes a prefix of `bytes` at `offset` of a file opened `.positioned` or `.createNewPositioned` (`pwrite`)
    /// and returns how many bytes were written (at least 1).
    func write(_ handle: FileHandle, _ bytes: UnsafeRawBufferPointer, at offset: Int) throws(StorageError) -> Int
    /// Reads up to `buffer.count` bytes at the current position; 0 means end of file.
    func read(_ handle: FileHandle, into buffer: UnsafeMutableRawBufferPointer) throws(StorageError) -> Int
    /// The file's current size in bytes.
    func size(of handle: FileHandle) throws(StorageError) -> Int
    /// Flushes the file to stable storage: `fsync` with `metadata`, `fdatasync` without.
    func synchronize(_ handle: FileHandle, metadata: Bool) throws(StorageError)
    /// Cuts the file to `size` bytes.
    func truncate(_ handle: FileHandle, to size: Int) throws(StorageError)
    /// Releases the descriptor.
    func close(_ handle: FileHandle) throws(StorageError)
    /// Atomically replaces `destination` with `source`.
    func rename(_ source: String, to destination: String) throws(StorageError)
    /// Deletes a file.
    func remove(_ path: String) throws(StorageError)
    /// The names (not paths) of the entries in `directory`, without "." and "..".
    func contents(ofDirectory directory: String) throws(StorageError) -> [String]
    /// Makes renames, creations and deletions inside `directory` durable.
    func synchronizeDirectory(_ directory: String) throws(StorageError)
    /// Creates `directory` if it does not exist yet (its parent must exist).
    func createDirectory(_ directory: String) throws(StorageError)
    /// Creates `directory` and every missing parent; succeeds when it exists already. Fails naming the first part
    /// of the path that is a file rather than a directory.
    func createDirectories(_ directory: String) throws(StorageError)
    /// What `path` names (following symbolic links), or nil when nothing is there (also when a part of the path is
    /// a file rather than a directory).
    func kind(of path: String) throws(StorageError) -> FileKind?
}

extension FileSystem {
    /// Writes every byte of `bytes`, looping over short writes. O(n).
    package func writeAll(_ handle: FileHandle, _ bytes: UnsafeRawBufferPointer) throws(StorageError) {
        var written = 0
        while written < bytes.count {
            let rest = UnsafeRawBufferPointer(rebasing: bytes[written...])
            let count = try self.write(handle, rest)
            guard count > 0 else {
                throw StorageError(
                    .io,
                    "Could not write to \(handle.path): the file system accepted no bytes. Check free disk space.",
                    path: handle.path
                )
            }
            written += count
        }
    }

    /// Writes every byte of `bytes` at `offset`, looping over short writes. O(n).
    package func writeAll(_ handle: FileHandle, _ bytes: UnsafeRawBufferPointer, at offset: Int) throws(StorageError) {
        var written = 0
        while written < bytes.count {
            let rest = UnsafeRawBufferPointer(rebasing: bytes[written...])
            let count = try self.write(handle, rest, at: offset + written)
            guard count > 0 else {
                throw StorageError(
                    .io,
                    "Could not write to \(handle.path): the file system accepted no bytes. Check free disk space.",
                    path: handle.path
                )
            }
            written += count
        }
    }

    /// Writes every byte of `bytes`, looping over short writes. O(n).
    package func writeAll(_ handle: FileHandle, _ bytes: [UInt8]) throws(StorageError) {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(StorageError) in try self.writeAll(handle, buffer) }
        }
        try result.get()
    }

    /// Replaces the file at `path` with `bytes` so that a crash leaves either the old content or the new one, never
    /// a mix: written to `<path>.tmp`, synced, renamed over `path`, and the directory synced. O(bytes.count).
    package func replaceFile(_ path: String, with bytes: [UInt8]) throws(StorageError) {
        let temporary = path + ".tmp"
        try? self.remove(temporary)
        let handle = try self.open(temporary, mode: .createNew)
        do throws(StorageError) {
            try self.writeAll(handle, bytes)
            try self.synchronize(handle, metadata: false)
        } catch {
            try? self.close(handle)
            try? self.remove(temporary)
            throw error
        }
        try self.close(handle)
        try self.rename(temporary, to: path)
        try self.synchronizeDirectory(Self.directory(of: path))
    }

    /// The directory `path` is in: "/" for a file at the root, "." for a bare name.
    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The whole content of the file at `path`, as large as it was when opened. O(file size).
    package func readAll(_ path: String) throws(StorageError) -> [UInt8] {
        let handle = try self.open(path, mode: .read)
        defer { try? self.close(handle) }
        return try self.read(handle, count: try self.size(of: handle))
    }

    /// The next `count` bytes of the file, or fewer where it ends first; read straight into the array's memory,
    /// which is never zeroed first (a snapshot is a gigabyte). O(count).
    package func read(_ handle: FileHandle, count: Int) throws(StorageError) -> [UInt8] {
        var failure: StorageError?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            do throws(StorageError) {
                initialized = try self.read(handle, filling: UnsafeMutableRawBufferPointer(buffer))
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return bytes
    }

    /// Reads until `buffer` is full or the file ends; returns how many bytes were read. O(buffer.count).
    package func read(_ handle: FileHandle, filling buffer: UnsafeMutableRawBufferPointer) throws(StorageError) -> Int {
        var filled = 0
        while filled < buffer.count {
            let read = try self.read(handle, into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            if read == 0 { break }
            filled += read
        }
        return filled
    }
}
