import Glibc
import HearthSystem

/// The real file system, through Glibc system calls; retries `EINTR` and reports every other errno as `.io`.
package struct PosixFileSystem: FileSystem {
    package init() {}

    package func open(_ path: String, mode: FileOpenMode) throws(StorageError) -> FileHandle {
        let flags: Int32
        switch mode {
        case .read: flags = O_RDONLY | O_CLOEXEC
        case .append: flags = O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC
        case .createNew: flags = O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC
        case .positioned: flags = O_WRONLY | O_CREAT | O_CLOEXEC
        case .createNewPositioned: flags = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC
        }
        let descriptor = try Self.retrying("open", path) { Glibc.open(path, flags, 0o644) }
        return FileHandle(descriptor: descriptor, path: path)
    }

    package func write(_ handle: FileHandle, _ bytes: UnsafeRawBufferPointer) throws(StorageError) -> Int {
        try Self.retrying("write", handle.path) { Glibc.write(handle.descriptor, bytes.baseAddress, bytes.count) }
    }

    package func write(
        _ handle: FileHandle, _ bytes: UnsafeRawBufferPointer, at offset: Int
    ) throws(StorageError) -> Int {
        try Self.retrying("pwrite", handle.path) {
            pwrite(handle.descriptor, bytes.baseAddress, bytes.count, off_t(offset))
        }
    }

    package func read(_ handle: FileHandle, into buffer: UnsafeMutableRawBufferPointer) throws(StorageError) -> Int {
        try Self.retrying("read", handle.path) { Glibc.read(handle.descriptor, buffer.baseAddress, buffer.count) }
    }

    package func size(of handle: FileHandle) throws(StorageError) -> Int {
        var status = stat()
        _ = try Self.retrying("fstat", handle.path) { fstat(handle.descriptor, &status) }
        return Int(status.st_size)
    }

    package func synchronize(_ handle: FileHandle, metadata: Bool) throws(StorageError) {
        if metadata {
            _ = try Self.retrying("fsync", handle.path) { fsync(handle.descriptor) }
        } else {
            _ = try Self.retrying("fdatasync", handle.path) { fdatasync(handle.descriptor) }
        }
    }

    package func truncate(_ handle: FileHandle, to size: Int) throws(StorageError) {
        _ = try Self.retrying("ftruncate", handle.path) { ftruncate(handle.descriptor, off_t(size)) }
    }

    package func close(_ handle: FileHandle) throws(StorageError) {
        // close() must not be retried on EINTR: the descriptor is already released on Linux.
        if Glibc.close(handle.descriptor) != 0 && errno != EINTR {
            throw Self.error("close", handle.path, errno)
        }
    }

    package func rename(_ source: String, to destination: String) throws(StorageError) {
        _ = try Self.retrying("rename", destination) { Glibc.rename(source, destination) }
    }

    package func remove(_ path: String) throws(StorageError) {
        _ = try Self.retrying("unlink", path) { unlink(path) }
    }

    package func contents(ofDirectory directory: String) throws(StorageError) -> [String] {
        guard let stream = opendir(directory) else {
            throw Self.error("opendir", directory, errno)
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
                String(cString: UnsafeRawPointer(pointer).assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." {
                names.append(name)
            }
        }
        return names
    }

    package func synchronizeDirectory(_ directory: String) throws(StorageError) {
        let descriptor = try Self.retrying("open", directory) { Glibc.open(directory, O_RDONLY | O_DIRECTORY, 0) }
        defer { _ = Glibc.close(descriptor) }
        _ = try Self.retrying("fsync", directory) { fsync(descriptor) }
    }

    package func createDirectory(_ directory: String) throws(StorageError) {
        if mkdir(directory, 0o755) != 0 && errno != EEXIST {
            throw Self.error("mkdir", directory, errno)
        }
    }

    package func createDirectories(_ directory: String) throws(StorageError) {
        var path = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            path += "/" + component
            guard mkdir(path, 0o755) != 0 else { continue }
            let code = errno
            guard code == EEXIST else { throw Self.error("mkdir", path, code) }
            guard try self.kind(of: path) == .directory else {
                throw StorageError(
                    .io,
                    "mkdir failed on \(directory): \(path) is a file, not a directory. Move it away or choose another "
                        + "data directory.",
                    path: path)
            }
        }
    }

    package func kind(of path: String) throws(StorageError) -> FileKind? {
        var status = stat()
        while stat(path, &status) != 0 {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return nil }
            if code != EINTR { throw Self.error("stat", path, code) }
        }
        switch status.st_mode & S_IFMT {
        case S_IFDIR: return .directory
        case S_IFREG: return .file
        default: return .other
        }
    }

    /// Runs a system call, retrying `EINTR`; a negative result becomes an `.io` error naming `operation` and `path`.
    private static func retrying<Result: BinaryInteger>(
        _ operation: String,
        _ path: String,
        _ call: () -> Result
    ) throws(StorageError) -> Result {
        while true {
            let result = call()
            if result >= 0 { return result }
            let code = errno
            if code != EINTR { throw Self.error(operation, path, code) }
        }
    }

    private static func error(_ operation: String, _ path: String, _ code: Int32) -> StorageError {
        StorageError(
            .io,
            "\(operation) failed on \(path): \(SystemError.describe(code)). Check that the data directory exists, "
                + "is writable and that the disk has free space and no hardware errors.",
            path: path
        )
    }
}
