import Foundation

/// Reads part of a backup file a chunk at a time, so a restore never holds the file whole.
package struct BackupFileReader {
    /// How much of the file is read at a time.
    static let chunkBytes = 1 << 20

    private let handle: Foundation.FileHandle
    /// Bytes left to read; nil: to the end of the file.
    private var remaining: UInt64?

    /// Opens the file at `path` to read `count` bytes from `offset` (to its end when nil).
    /// - Throws: `BackupFileError` when the file cannot be opened.
    init(path: String, from offset: UInt64, count: UInt64?) throws(BackupFileError) {
        do {
            self.handle = try Foundation.FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            try self.handle.seek(toOffset: offset)
        } catch {
            throw BackupFileError("cannot open the file: \(error.localizedDescription)")
        }
        self.remaining = count
    }

    /// The next chunk, or nil at the end (the file is closed then).
    /// - Throws: `BackupFileError` when the file cannot be read, or ends before the bytes asked for.
    package mutating func next() throws(BackupFileError) -> [UInt8]? {
        let want = min(UInt64(Self.chunkBytes), self.remaining ?? UInt64.max)
        let data: Data
        do {
            data = want == 0 ? Data() : try self.handle.read(upToCount: Int(want)) ?? Data()
        } catch {
            throw BackupFileError("cannot read the file: \(error.localizedDescription)")
        }
        guard !data.isEmpty else {
            try? self.handle.close()
            if let remaining, remaining > 0 {
                throw BackupFileError("the file changed while it was read: it ended \(remaining) bytes early")
            }
            return nil
        }
        self.remaining = self.remaining.map { $0 - UInt64(data.count) }
        return Array(data)
    }
}
