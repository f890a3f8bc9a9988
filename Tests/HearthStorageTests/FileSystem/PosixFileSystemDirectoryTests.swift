import HearthStorage
import HearthTestKit
import Testing

/// The real file system's directory operations: nested creation, what a path names, and whole-file replacement.
@Suite struct PosixFileSystemDirectoryTests {
    /// Nested directories are created with every missing parent, and creating them again succeeds.
    @Test func createsNestedDirectoriesAndAcceptsExistingOnes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let disk = PosixFileSystem()
        let nested = directory.child("a/b/c")
        try disk.createDirectories(nested)
        try disk.createDirectories(nested)
        #expect(try disk.kind(of: nested) == .directory)
        #expect(try disk.contents(ofDirectory: directory.child("a")) == ["b"])
    }

    /// A file in the way of a nested directory fails with an `.io` error naming that file.
    @Test func aFileInTheWayFailsNamingIt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let disk = PosixFileSystem()
        try disk.replaceFile(directory.child("file"), with: [1])
        let error = #expect(throws: StorageError.self) { try disk.createDirectories(directory.child("file/sub")) }
        #expect(error?.code == .io)
        #expect(error?.path == directory.child("file"))
        #expect(error?.message.contains("is a file") == true)
    }

    /// `kind(of:)` tells a directory, a file and nothing apart, also below a file.
    @Test func kindTellsFilesDirectoriesAndNothingApart() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let disk = PosixFileSystem()
        try disk.replaceFile(directory.child("file"), with: [1, 2])
        #expect(try disk.kind(of: directory.path) == .directory)
        #expect(try disk.kind(of: directory.child("file")) == .file)
        #expect(try disk.kind(of: directory.child("absent")) == nil)
        #expect(try disk.kind(of: directory.child("file/below")) == nil)
        #expect(try disk.kind(of: "/dev/null") == .other)
    }

    /// Replacing a file leaves the new content and no temporary file.
    @Test func replaceFileSwapsTheWholeContent() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let disk = PosixFileSystem()
        let path = directory.child("record.json")
        try disk.replaceFile(path, with: Array("old, longer content".utf8))
        try disk.replaceFile(path, with: Array("new".utf8))
        #expect(try disk.readAll(path) == Array("new".utf8))
        #expect(try directory.fileNames() == ["record.json"])
    }
}
