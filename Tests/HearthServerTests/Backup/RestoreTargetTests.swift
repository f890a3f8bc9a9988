import HearthStorage
import HearthTestKit
import Testing

@testable import HearthDatabase

/// A restore's target is checked on the file system it will be made on: absent or empty passes, a file or a
/// directory holding anything is refused with a message naming it.
@Suite struct RestoreTargetTests {
    /// An absent directory and an empty one are fine targets.
    @Test func absentAndEmptyDirectoriesPass() throws {
        let disk = SimulatedFileSystem()
        try disk.createDirectories("/restore/empty")
        try BackupRestore.requireEmpty("/restore/absent", on: disk)
        try BackupRestore.requireEmpty("/restore/empty", on: disk)
    }

    /// A file, and a directory holding an entry, are refused naming the path (and what it holds).
    @Test func aFileOrAFullDirectoryIsRefused() throws {
        let disk = SimulatedFileSystem()
        try disk.createDirectories("/restore/full")
        try disk.replaceFile("/restore/full/wal-1", with: [1])
        let file = #expect(throws: RestoreTargetError.self) {
            try BackupRestore.requireEmpty("/restore/full/wal-1", on: disk)
        }
        #expect(file?.message.contains("/restore/full/wal-1 is a file") == true)
        let full = #expect(throws: RestoreTargetError.self) {
            try BackupRestore.requireEmpty("/restore/full", on: disk)
        }
        #expect(full?.message.contains("/restore/full is not empty (it holds wal-1)") == true)
    }
}
