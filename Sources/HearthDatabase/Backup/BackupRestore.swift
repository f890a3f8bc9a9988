package import HearthStorage

/// `hearth restore`: checks a backup file whole, then makes a fresh node's data directory from it.
public enum BackupRestore {
    /// What checking a backup file found: its header, where its trees begin, and how long it is before its trailer.
    public struct Checked: Sendable {
        public var header: BackupHeader
        public var treesOffset: UInt64
        public var payloadLength: UInt64

        /// A reader of the trees' bytes in the file at `path`, starting with the `B` line.
        package func trees(of path: String) throws(BackupFileError) -> BackupFileReader {
            try BackupFileReader(path: path, from: self.treesOffset, count: self.payloadLength - self.treesOffset)
        }
    }

    /// Reads the file at `path` once through a `BackupChecker`.
    /// - Throws: `BackupFileError` naming the file and what is wrong with it.
    public static func check(file path: String) throws(BackupFileError) -> Checked {
        var checker = BackupChecker()
        do {
            var reader = try BackupFileReader(path: path, from: 0, count: nil)
            while let bytes = try reader.next() { try checker.feed(bytes) }
            let header = try checker.finish()
            return Checked(
                header: header, treesOffset: checker.treesOffset,
                payloadLength: checker.count - UInt64(BackupFormat.trailerLength))
        } catch {
            throw BackupFileError("\(path): \(error.message)")
        }
    }

    /// Makes `directory` (absent or empty) the data directory of a fresh single node holding the backup at `path`:
    /// one snapshot, at the start of an empty log, holding the backup's trees as they are. The node starts from it
    /// with every shard's log at its beginning. Nothing is written unless the whole file checks out.
    /// - Returns: the backup's header.
    /// - Throws: `BackupFileError` for a damaged file, `RestoreTargetError` for a directory that is not empty, or a
    ///   `StorageError` when the snapshot cannot be written.
    @discardableResult
    public static func restoreNode(from path: String, into directory: String) throws -> BackupHeader {
        try Self.restoreNode(from: path, into: directory, fileSystem: PosixFileSystem())
    }

    /// Restores as `restoreNode(from:into:)` does, making the data directory on `fileSystem` (the backup file itself
    /// is read from the real disk).
    @discardableResult
    package static func restoreNode(
        from path: String, into directory: String, fileSystem: any FileSystem
    ) throws -> BackupHeader {
        try Self.requireEmpty(directory, on: fileSystem)
        let checked = try Self.check(file: path)
        try fileSystem.createDirectories(directory)
        let snapshots = try SnapshotStore(directory: directory + "/snapshots", fileSystem: fileSystem)
        try snapshots.write(lsn: 0) { writer in
            try writer.write(Array((SnapshotContent.header + "\n").utf8))
            var reader = try checked.trees(of: path)
            while let bytes = try reader.next() { try writer.write(bytes) }
        }
        return checked.header
    }

    /// Refuses a directory on `fileSystem` that exists and holds anything, or that cannot be read: a restore never
    /// mixes with data already there.
    package static func requireEmpty(_ directory: String, on fileSystem: any FileSystem) throws(RestoreTargetError) {
        let kind: FileKind?
        let entries: [String]
        do throws(StorageError) {
            kind = try fileSystem.kind(of: directory)
            entries = kind == .directory ? try fileSystem.contents(ofDirectory: directory) : []
        } catch {
            throw RestoreTargetError(
                "\(directory) cannot be checked for an empty restore target (\(error.message)); name a new or empty "
                    + "directory you can read")
        }
        guard let kind else { return }
        guard kind == .directory else {
            let what = kind == .file ? "a file" : "not a directory"
            throw RestoreTargetError("\(directory) is \(what); restore into a new or empty directory")
        }
        guard entries.isEmpty else {
            throw RestoreTargetError(
                "\(directory) is not empty (it holds \(entries.sorted().prefix(3).joined(separator: ", "))); a "
                    + "restore makes a fresh data directory: name a new or empty one")
        }
    }
}

/// A restore's target cannot take a fresh data directory (it holds files already, or is not a directory).
public struct RestoreTargetError: Error, Sendable, CustomStringConvertible {
    public let message: String

    package init(_ message: String) {
        self.message = message
    }

    public var description: String { self.message }
}
