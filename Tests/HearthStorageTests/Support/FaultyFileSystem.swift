import HearthStorage
import Synchronization

/// The real file system with injectable faults: failing syncs, short writes and torn writes.
final class FaultyFileSystem: FileSystem {
    /// What goes wrong, and counters of what happened.
    struct Plan {
        /// Syncs (file or directory) that succeed before every later one fails.
        var successfulSynchronizations: Int?
        /// Each `write` accepts at most this many bytes.
        var maximumWriteChunk: Int?
        /// Bytes that can still be written; the write that crosses the limit writes a prefix, then writes fail.
        var remainingWriteBytes: Int?
        /// A write of more bytes than this fails whole (a disk with room for a batch but not a chunk of zeros).
        var failingWritesAbove: Int?
        var synchronizations = 0
        var writes = 0
    }

    let plan: Mutex<Plan>
    private let base = PosixFileSystem()

    init(_ plan: Plan = Plan()) {
        self.plan = Mutex(plan)
    }

    func open(_ path: String, mode: FileOpenMode) throws(StorageError) -> FileHandle {
        try self.base.open(path, mode: mode)
    }

    func write(_ handle: FileHandle, _ bytes: UnsafeRawBufferPointer) throws(StorageError) -> Int {
        let allowed = try self.allowedCount(of: bytes, handle)
        return try self.base.write(handle, UnsafeRawBufferPointer(rebasing: bytes[..<allowed]))
    }

    func write(_ handle: FileHandle, _ bytes: UnsafeRawBufferPointer, at offset: Int) throws(StorageError) -> Int {
        let allowed = try self.allowedCount(of: bytes, handle)
        return try self.base.write(handle, UnsafeRawBufferPointer(rebasing: bytes[..<allowed]), at: offset)
    }

    /// How many of `bytes` the plan lets the next write take; throws once the plan's byte budget is spent.
    private func allowedCount(of bytes: UnsafeRawBufferPointer, _ handle: FileHandle) throws(StorageError) -> Int {
        let allowed: Int? = self.plan.withLock { plan in
            plan.writes += 1
            if let limit = plan.failingWritesAbove, bytes.count > limit { return nil }
            var count = min(bytes.count, plan.maximumWriteChunk ?? bytes.count)
            if let remaining = plan.remainingWriteBytes {
                count = min(count, remaining)
                plan.remainingWriteBytes = remaining - count
                if count == 0 { return nil }
            }
            return count
        }
        guard let allowed else {
            throw StorageError(.io, "injected write failure on \(handle.path)", path: handle.path)
        }
        return allowed
    }

    func read(_ handle: FileHandle, into buffer: UnsafeMutableRawBufferPointer) throws(StorageError) -> Int {
        try self.base.read(handle, into: buffer)
    }

    func size(of handle: FileHandle) throws(StorageError) -> Int {
        try self.base.size(of: handle)
    }

    func synchronize(_ handle: FileHandle, metadata: Bool) throws(StorageError) {
        try self.checkSynchronization(handle.path)
        try self.base.synchronize(handle, metadata: metadata)
    }

    func truncate(_ handle: FileHandle, to size: Int) throws(StorageError) {
        try self.base.truncate(handle, to: size)
    }

    func close(_ handle: FileHandle) throws(StorageError) {
        try self.base.close(handle)
    }

    func rename(_ source: String, to destination: String) throws(StorageError) {
        try self.base.rename(source, to: destination)
    }

    func remove(_ path: String) throws(StorageError) {
        try self.base.remove(path)
    }

    func contents(ofDirectory directory: String) throws(StorageError) -> [String] {
        try self.base.contents(ofDirectory: directory)
    }

    func synchronizeDirectory(_ directory: String) throws(StorageError) {
        try self.checkSynchronization(directory)
        try self.base.synchronizeDirectory(directory)
    }

    func createDirectory(_ directory: String) throws(StorageError) {
        try self.base.createDirectory(directory)
    }

    func createDirectories(_ directory: String) throws(StorageError) {
        try self.base.createDirectories(directory)
    }

    func kind(of path: String) throws(StorageError) -> FileKind? {
        try self.base.kind(of: path)
    }

    private func checkSynchronization(_ path: String) throws(StorageError) {
        let fails = self.plan.withLock { plan in
            plan.synchronizations += 1
            guard let limit = plan.successfulSynchronizations else { return false }
            return plan.synchronizations > limit
        }
        if fails {
            throw StorageError(.io, "injected fsync failure on \(path)", path: path)
        }
    }
}
