import HearthCore
import HearthStorage

/// A persistent client's files in its directory: `writes.log`, the writes the server has not confirmed (appended
/// as they are made, before they are sent; a record marks each one finished), and `cache.bin`, the cached data
/// (rewritten whole, through a temporary file and a rename).
///
/// Used only on the repo's queue. A file that cannot be read whole is not fatal: the intact records are used, the
/// rest is dropped with a warning (a write log cut short by a crash loses at most the write being logged; a damaged
/// cache is discarded, since the server will send the data again). Writing problems are warnings too: the client
/// keeps working from memory.
final class ClientStore: @unchecked Sendable {
    private let directory: String
    private let fileSystem: any FileSystem
    private let warn: @Sendable (String) -> Void
    private var writeLog: FileHandle?

    init(directory: String, fileSystem: any FileSystem = PosixFileSystem(), warn: @escaping @Sendable (String) -> Void)
    {
        self.directory = directory
        self.fileSystem = fileSystem
        self.warn = warn
        // A directory that cannot be made shows up as a warning at the first save.
        try? fileSystem.createDirectories(directory)
    }

    deinit {
        if let writeLog { try? self.fileSystem.close(writeLog) }
    }

    private var writesPath: String { self.directory + "/writes.log" }
    private var cachePath: String { self.directory + "/cache.bin" }

    // MARK: Writes

    /// The unfinished writes, oldest first, by the number they were logged with.
    func loadWrites() -> [(id: Int64, write: PersistedWrite)] {
        var live: [(id: Int64, write: PersistedWrite)] = []
        for record in self.records(at: self.writesPath, name: "writes.log", what: "write log", discardIfDamaged: false)
        {
            if let id = record["a"]?.intValue, let write = record["w"].flatMap(PersistedWrite.init(json:)) {
                live.append((id, write))
            } else if let id = record["f"]?.intValue {
                live.removeAll { $0.id == id }
            }
        }
        return live
    }

    /// Replaces the log with `live` alone (at start, and whenever no write is left).
    func rewriteWrites(_ live: [(id: Int64, write: PersistedWrite)]) {
        if let writeLog {
            try? self.fileSystem.close(writeLog)
            self.writeLog = nil
        }
        let records = live.map { JSONValue.object(["a": .int($0.id), "w": $0.write.json]) }
        self.replace(self.writesPath, with: records, what: "write log")
    }

    func appendAdded(_ id: Int64, _ write: PersistedWrite) {
        self.append(.object(["a": .int(id), "w": write.json]))
    }

    func appendFinished(_ id: Int64) {
        self.append(.object(["f": .int(id)]))
    }

    private func append(_ record: JSONValue) {
        do {
            if self.writeLog == nil { self.writeLog = try self.fileSystem.open(self.writesPath, mode: .append) }
            if let writeLog { try self.fileSystem.writeAll(writeLog, PersistenceFraming.frame(record.jsonBytes())) }
        } catch {
            self.warn("could not log a write in \(self.writesPath): \(error.message); it is kept in memory only")
        }
    }

    // MARK: Cache

    func loadCache() -> [(path: Path, node: Node)] {
        self.records(at: self.cachePath, name: "cache.bin", what: "cache", discardIfDamaged: true).compactMap {
            record in
            guard let text = record["p"]?.stringValue, let path = try? Path(validating: text), let data = record["d"],
                let value = try? WriteValue(json: data, depth: path.count)
            else { return nil }
            return (path, value.node)
        }
    }

    func saveCache(_ regions: [(path: Path, node: Node)]) {
        let records = regions.map { region in
            JSONValue.object(["p": .string(region.path.description), "d": region.node.jsonValue(format: .export)])
        }
        self.replace(self.cachePath, with: records, what: "cache")
    }

    // MARK: Files

    /// The intact records of a file. Damage is reported; with `discardIfDamaged` the whole file is dropped.
    private func records(at path: String, name: String, what: String, discardIfDamaged: Bool) -> [JSONValue] {
        guard (try? self.fileSystem.contents(ofDirectory: self.directory))?.contains(name) == true else { return [] }
        let bytes: [UInt8]
        do {
            bytes = try self.fileSystem.readAll(path)
        } catch {
            self.warn("could not read the \(what) at \(path): \(error.message); starting without it")
            return []
        }
        let (payloads, isDamaged) = PersistenceFraming.payloads(bytes)
        let records = payloads.compactMap { try? JSONReader.parseValue($0) }
        guard isDamaged || records.count < payloads.count else { return records }
        self.warn(
            "the \(what) at \(path) is damaged; "
                + (discardIfDamaged ? "it is discarded" : "the records before the damage are kept"))
        return discardIfDamaged ? [] : records
    }

    /// Writes `records` to a temporary file and renames it over `path` (`FileSystem.replaceFile`).
    private func replace(_ path: String, with records: [JSONValue], what: String) {
        var bytes: [UInt8] = []
        for record in records { bytes += PersistenceFraming.frame(record.jsonBytes()) }
        do {
            try self.fileSystem.replaceFile(path, with: bytes)
        } catch {
            self.warn("could not save the \(what) at \(path): \(error.message)")
        }
    }
}
