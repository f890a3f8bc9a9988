package import HearthStorage
import HearthSystem

/// One simulated machine's disk behind storage's `FileSystem` seam, in memory: a write is durable only once its
/// file is synced, a new, renamed or removed name only once its directory is synced, and `crash` returns the disk a
/// restarted machine finds.
///
/// What survives a crash: every file's synced bytes, plus a prefix of its unsynced writes — appended or positioned,
/// zeros written ahead of a log's end as well as records — whose length in bytes the caller's seeded generator
/// picks (writes reach the platter in order, and the last one may stop anywhere, tearing a record or leaving a
/// zeroed region half written), whose last few bytes may come back as garbage; and the names as of each
/// directory's last sync. A truncation is durable at once. The
/// storage layer must recognise the torn or garbled tail by its checksums and cut it off. `corrupt` damages synced
/// bytes (bit rot), which recovery must refuse rather than skip. Directories themselves are durable as soon as they
/// are created. After `crash`, this instance is dead: every call fails, as a dead machine's would.
package final class SimulatedFileSystem: FileSystem, Sendable {
    /// One file: what a running machine reads, what the last sync made durable, and the writes since, in order.
    private struct File {
        var bytes: [UInt8] = []
        var durableBytes: [UInt8] = []
        var unsynced: [(offset: Int, bytes: [UInt8])] = []

        /// Writes `source` at `offset` of `target`, filling a gap past its end with zeros (a hole reads as zeros).
        static func place(_ source: some Collection<UInt8>, at offset: Int, in target: inout [UInt8]) {
            if target.count < offset {
                target.append(contentsOf: repeatElement(0, count: offset - target.count))
            }
            let overlap = min(source.count, target.count - offset)
            target.replaceSubrange(offset..<(offset + overlap), with: source.prefix(overlap))
            target.append(contentsOf: source.dropFirst(overlap))
        }

        /// The file a restarted machine finds: the synced bytes, then the first `kept` bytes of the unsynced writes
        /// in order, and where those kept bytes landed (for garbling the last of them).
        func survivor(keeping kept: Int) -> (bytes: [UInt8], landed: [Range<Int>]) {
            var image = self.durableBytes
            var landed: [Range<Int>] = []
            var remaining = kept
            for write in self.unsynced where remaining > 0 {
                let count = min(write.bytes.count, remaining)
                Self.place(write.bytes.prefix(count), at: write.offset, in: &image)
                landed.append(write.offset..<(write.offset + count))
                remaining -= count
            }
            return (image, landed)
        }
    }

    private struct OpenFile {
        var file: Int
        var position: Int
        /// Opened `.positioned` or `.createNewPositioned`: written with `write(_:_:at:)` only.
        var isPositioned: Bool
    }

    private struct State {
        var contents: [Int: File] = [:]
        /// The names a running machine sees, and the names its directories' last syncs made durable.
        var names: [String: Int] = [:]
        var durableNames: [String: Int] = [:]
        var directories: Set<String> = ["/"]
        var open: [Int32: OpenFile] = [:]
        var nextFile = 1
        var nextDescriptor: Int32 = 3
        var isDead = false
        /// Set by `loseSyncs`: syncs return without making anything durable.
        var losesSyncs = false
    }

    private let state: Lock<State>

    /// An empty disk.
    package convenience init() {
        self.init(State())
    }

    private init(_ state: State) {
        self.state = Lock(state)
    }

    /// The disk a machine finds when it restarts after crashing now (see the type's description); this instance
    /// fails every call from now on.
    /// - Parameter garbleRate: how often a surviving unsynced tail ends in garbage.
    package func crash(using random: inout some RandomNumberGenerator, garbleRate: Double = 0.2) -> SimulatedFileSystem
    {
        let survivor = self.state.withLock { state -> State in
            state.isDead = true
            var next = State()
            next.directories = state.directories
            next.names = state.durableNames
            next.durableNames = state.durableNames
            next.nextFile = state.nextFile
            for id in Set(state.durableNames.values).sorted() {
                guard let file = state.contents[id] else { continue }
                let unsynced = file.unsynced.reduce(0) { $0 + $1.bytes.count }
                let kept = unsynced > 0 ? Int.random(in: 0...unsynced, using: &random) : 0
                var (bytes, landed) = file.survivor(keeping: kept)
                if kept > 0 && Double.random(in: 0..<1, using: &random) < garbleRate {
                    for offset in Self.lastOffsets(min(kept, 8), of: landed) {
                        bytes[offset] = UInt8.random(in: 0...255, using: &random)
                    }
                }
                next.contents[id] = File(bytes: bytes, durableBytes: bytes)
            }
            return next
        }
        return SimulatedFileSystem(survivor)
    }

    /// The file offsets of the last `count` bytes written by `landed` (writes in order), ascending.
    private static func lastOffsets(_ count: Int, of landed: [Range<Int>]) -> [Int] {
        var offsets: [Int] = []
        for range in landed.reversed() {
            for offset in range.reversed() where offsets.count < count {
                offsets.append(offset)
            }
        }
        return offsets.reversed()
    }

    /// From now on syncs do nothing: the machine is losing power in the middle of writing, so what it writes now
    /// is unsynced when `crash` comes.
    package func loseSyncs() {
        self.state.withLock { $0.losesSyncs = true }
    }

    /// Flips one synced byte of the file at `path` (bit rot), at an offset `random` picks; false when the file has
    /// no synced bytes.
    @discardableResult
    package func corrupt(_ path: String, using random: inout some RandomNumberGenerator) -> Bool {
        self.state.withLock { state in
            guard let id = state.names[path], var file = state.contents[id], !file.durableBytes.isEmpty else {
                return false
            }
            let offset = Int.random(in: 0..<file.durableBytes.count, using: &random)
            file.durableBytes[offset] ^= 0xFF
            if offset < file.bytes.count { file.bytes[offset] ^= 0xFF }
            state.contents[id] = file
            return true
        }
    }

    /// The paths of every file, sorted.
    package var paths: [String] { self.state.withLock { $0.names.keys.sorted() } }

    package func open(_ path: String, mode: FileOpenMode) throws(StorageError) -> FileHandle {
        try self.withLiveState(path) { state throws(StorageError) in
            let id: Int
            switch (mode, state.names[path]) {
            case (.read, let existing?), (.append, let existing?), (.positioned, let existing?):
                id = existing
            case (.createNew, _?), (.createNewPositioned, _?):
                throw StorageError(.io, "open \(path): the file exists", path: path)
            case (.read, nil):
                throw StorageError(.io, "open \(path): no such file", path: path)
            case (.append, nil), (.createNew, nil), (.positioned, nil), (.createNewPositioned, nil):
                guard state.directories.contains(Self.directory(of: path)) else {
                    throw StorageError(.io, "open \(path): no such directory", path: path)
                }
                id = state.nextFile
                state.nextFile += 1
                state.contents[id] = File()
                state.names[path] = id
            }
            let descriptor = state.nextDescriptor
            state.nextDescriptor += 1
            let isPositioned = mode == .positioned || mode == .createNewPositioned
            state.open[descriptor] = OpenFile(file: id, position: 0, isPositioned: isPositioned)
            return FileHandle(descriptor: descriptor, path: path)
        }
    }

    package func write(_ handle: FileHandle, _ bytes: UnsafeRawBufferPointer) throws(StorageError) -> Int {
        try self.withFile(handle) { state, open throws(StorageError) in
            guard !open.isPositioned, var file = state.contents[open.file] else {
                throw StorageError(.io, "write \(handle.path): opened for positioned writes", path: handle.path)
            }
            file.unsynced.append((file.bytes.count, Array(bytes)))
            file.bytes.append(contentsOf: bytes)
            state.contents[open.file] = file
            return bytes.count
        }
    }

    package func write(
        _ handle: FileHandle, _ bytes: UnsafeRawBufferPointer, at offset: Int
    ) throws(StorageError) -> Int {
        try self.withFile(handle) { state, open throws(StorageError) in
            guard open.isPositioned, offset >= 0, var file = state.contents[open.file] else {
                throw StorageError(.io, "pwrite \(handle.path): not opened for writes at \(offset)", path: handle.path)
            }
            file.unsynced.append((offset, Array(bytes)))
            File.place(bytes, at: offset, in: &file.bytes)
            state.contents[open.file] = file
            return bytes.count
        }
    }

    package func read(_ handle: FileHandle, into buffer: UnsafeMutableRawBufferPointer) throws(StorageError) -> Int {
        try self.withFile(handle) { state, open throws(StorageError) in
            let bytes = state.contents[open.file]?.bytes ?? []
            let count = min(buffer.count, max(0, bytes.count - open.position))
            bytes.withUnsafeBytes { source in
                buffer.copyMemory(
                    from: UnsafeRawBufferPointer(rebasing: source[open.position..<(open.position + count)]))
            }
            state.open[handle.descriptor]?.position += count
            return count
        }
    }

    package func size(of handle: FileHandle) throws(StorageError) -> Int {
        try self.withFile(handle) { state, open throws(StorageError) in state.contents[open.file]?.bytes.count ?? 0 }
    }

    package func synchronize(_ handle: FileHandle, metadata: Bool) throws(StorageError) {
        try self.withFile(handle) { state, open throws(StorageError) in
            guard !state.losesSyncs, var file = state.contents[open.file] else { return }
            file.durableBytes = file.bytes
            file.unsynced.removeAll()
            state.contents[open.file] = file
        }
    }

    package func truncate(_ handle: FileHandle, to size: Int) throws(StorageError) {
        try self.withFile(handle) { state, open throws(StorageError) in
            guard var file = state.contents[open.file], size <= file.bytes.count else { return }
            file.bytes.removeLast(file.bytes.count - size)
            file.durableBytes.removeLast(max(0, file.durableBytes.count - size))
            file.unsynced = file.unsynced.compactMap { write in
                write.offset < size ? (write.offset, Array(write.bytes.prefix(size - write.offset))) : nil
            }
            state.contents[open.file] = file
        }
    }

    package func close(_ handle: FileHandle) throws(StorageError) {
        try self.withLiveState(handle.path) { state throws(StorageError) in
            state.open[handle.descriptor] = nil
        }
    }

    package func rename(_ source: String, to destination: String) throws(StorageError) {
        try self.withLiveState(source) { state throws(StorageError) in
            guard let id = state.names.removeValue(forKey: source) else {
                throw StorageError(.io, "rename \(source): no such file", path: source)
            }
            state.names[destination] = id
        }
    }

    package func remove(_ path: String) throws(StorageError) {
        try self.withLiveState(path) { state throws(StorageError) in
            guard state.names.removeValue(forKey: path) != nil else {
                throw StorageError(.io, "unlink \(path): no such file", path: path)
            }
        }
    }

    package func contents(ofDirectory directory: String) throws(StorageError) -> [String] {
        try self.withLiveState(directory) { state throws(StorageError) in
            guard state.directories.contains(directory) else {
                throw StorageError(.io, "opendir \(directory): no such directory", path: directory)
            }
            let files = state.names.keys.filter { Self.directory(of: $0) == directory }
            let subdirectories = state.directories.filter { $0 != directory && Self.directory(of: $0) == directory }
            return (files + subdirectories).map { String($0.dropFirst(directory.count + 1)) }.sorted()
        }
    }

    package func synchronizeDirectory(_ directory: String) throws(StorageError) {
        try self.withLiveState(directory) { state throws(StorageError) in
            guard !state.losesSyncs else { return }
            state.durableNames = state.durableNames.filter { Self.directory(of: $0.key) != directory }
            for (path, id) in state.names where Self.directory(of: path) == directory {
                state.durableNames[path] = id
            }
        }
    }

    package func createDirectory(_ directory: String) throws(StorageError) {
        try self.withLiveState(directory) { state throws(StorageError) in
            guard state.directories.contains(Self.directory(of: directory)) else {
                throw StorageError(.io, "mkdir \(directory): no such parent directory", path: directory)
            }
            state.directories.insert(directory)
        }
    }

    package func createDirectories(_ directory: String) throws(StorageError) {
        try self.withLiveState(directory) { state throws(StorageError) in
            var path = ""
            for component in directory.split(separator: "/") {
                path += "/" + component
                guard state.names[path] == nil else {
                    throw StorageError(.io, "mkdir \(directory): \(path) is a file, not a directory", path: path)
                }
                state.directories.insert(path)
            }
        }
    }

    package func kind(of path: String) throws(StorageError) -> FileKind? {
        try self.withLiveState(path) { state throws(StorageError) in
            if state.directories.contains(path) { return .directory }
            return state.names[path] == nil ? nil : .file
        }
    }

    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    private func withLiveState<T>(
        _ path: String, _ body: (inout State) throws(StorageError) -> T
    ) throws(StorageError) -> T {
        let result = self.state.withLock { state -> Result<T, StorageError> in
            guard !state.isDead else {
                return .failure(StorageError(.io, "\(path): the simulated machine crashed", path: path))
            }
            do throws(StorageError) {
                return .success(try body(&state))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private func withFile<T>(
        _ handle: FileHandle, _ body: (inout State, OpenFile) throws(StorageError) -> T
    ) throws(StorageError) -> T {
        try self.withLiveState(handle.path) { state throws(StorageError) in
            guard let open = state.open[handle.descriptor] else {
                throw StorageError(.io, "\(handle.path): the file is not open", path: handle.path)
            }
            return try body(&state, open)
        }
    }
}
