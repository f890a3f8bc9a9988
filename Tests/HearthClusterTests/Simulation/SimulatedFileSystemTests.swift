import HearthStorage
import HearthTestKit
import Testing

/// The simulated disk keeps exactly what a real one promises across a crash: synced bytes, names whose directory
/// was synced, and an unsynced tail cut (or garbled) anywhere.
@Suite struct SimulatedFileSystemTests {
    @Test func syncedBytesAndSyncedNamesSurviveACrash() throws {
        let disk = SimulatedFileSystem()
        try disk.createDirectories("/d")
        let kept = try disk.open("/d/kept", mode: .createNew)
        try disk.writeAll(kept, [1, 2, 3])
        try disk.synchronize(kept, metadata: true)
        try disk.synchronizeDirectory("/d")
        try disk.writeAll(kept, [4, 5])
        let unnamed = try disk.open("/d/unnamed", mode: .createNew)
        try disk.writeAll(unnamed, [9])
        try disk.synchronize(unnamed, metadata: true)
        var random = SeededRandom(seed: 3)
        let after = disk.crash(using: &random, garbleRate: 0)
        let bytes = try after.readAll("/d/kept")
        #expect(Array(bytes.prefix(3)) == [1, 2, 3])
        #expect([[1, 2, 3], [1, 2, 3, 4], [1, 2, 3, 4, 5]].contains(bytes))
        #expect(after.paths == ["/d/kept"])
        #expect(throws: StorageError.self) { try disk.readAll("/d/kept") }
    }

    /// Positioned writes (zeros ahead, then records over them) survive a crash as an in-order prefix of the
    /// unsynced writes: never a later write without every earlier one.
    @Test func positionedWritesSurviveAsAPrefixInOrder() throws {
        for seed in UInt64(1)...30 {
            let disk = SimulatedFileSystem()
            try disk.createDirectories("/d")
            let file = try disk.open("/d/f", mode: .createNewPositioned)
            try ([1, 2] as [UInt8]).withUnsafeBytes { try disk.writeAll(file, $0, at: 0) }
            try disk.synchronize(file, metadata: false)
            try [UInt8](repeating: 0, count: 6).withUnsafeBytes { try disk.writeAll(file, $0, at: 2) }
            try ([3, 4, 5] as [UInt8]).withUnsafeBytes { try disk.writeAll(file, $0, at: 2) }
            #expect(try disk.readAll("/d/f") == [1, 2, 3, 4, 5, 0, 0, 0])
            try disk.synchronizeDirectory("/d")
            var random = SeededRandom(seed: seed)
            let bytes = try disk.crash(using: &random, garbleRate: 0).readAll("/d/f")
            let possible: [[UInt8]] =
                (0...6).map { [1, 2] + Array(repeating: 0, count: $0) }
                + (1...3).map { [1, 2] + Array([3, 4, 5].prefix($0)) + Array(repeating: 0, count: 6 - $0) }
            #expect(possible.contains(bytes), "seed \(seed): \(bytes)")
        }
        let disk = SimulatedFileSystem()
        try disk.createDirectories("/d")
        let appending = try disk.open("/d/a", mode: .append)
        #expect(throws: StorageError.self) {
            try ([1] as [UInt8]).withUnsafeBytes { try disk.writeAll(appending, $0, at: 0) }
        }
    }

    @Test func aRenameIsDurableOnlyOnceItsDirectoryIsSynced() throws {
        let disk = SimulatedFileSystem()
        try disk.createDirectories("/d")
        let file = try disk.open("/d/a.tmp", mode: .createNew)
        try disk.writeAll(file, [7])
        try disk.synchronize(file, metadata: true)
        try disk.synchronizeDirectory("/d")
        try disk.rename("/d/a.tmp", to: "/d/a")
        var random = SeededRandom(seed: 1)
        #expect(disk.crash(using: &random).paths == ["/d/a.tmp"])
    }

    @Test func corruptionFlipsASyncedByte() throws {
        let disk = SimulatedFileSystem()
        try disk.createDirectories("/d")
        let file = try disk.open("/d/f", mode: .createNew)
        try disk.writeAll(file, [0, 0, 0, 0])
        try disk.synchronize(file, metadata: true)
        var random = SeededRandom(seed: 5)
        #expect(disk.corrupt("/d/f", using: &random))
        #expect(try disk.readAll("/d/f").filter { $0 == 0xFF }.count == 1)
    }

    /// Nested directories are created with every missing parent, again without complaint, and listed by their
    /// parents; a file in the way fails naming it.
    @Test func createsNestedDirectoriesAndRefusesAFileInTheWay() throws {
        let disk = SimulatedFileSystem()
        try disk.createDirectories("/data/n1/wal")
        try disk.createDirectories("/data/n1/wal")
        #expect(try disk.contents(ofDirectory: "/data") == ["n1"])
        #expect(try disk.contents(ofDirectory: "/data/n1") == ["wal"])
        try disk.replaceFile("/data/file", with: [1])
        let error = #expect(throws: StorageError.self) { try disk.createDirectories("/data/file/sub") }
        #expect(error?.path == "/data/file")
    }

    /// `kind(of:)` tells a directory, a file and nothing apart.
    @Test func kindTellsFilesDirectoriesAndNothingApart() throws {
        let disk = SimulatedFileSystem()
        try disk.createDirectories("/d")
        try disk.replaceFile("/d/f", with: [1])
        #expect(try disk.kind(of: "/d") == .directory)
        #expect(try disk.kind(of: "/d/f") == .file)
        #expect(try disk.kind(of: "/d/absent") == nil)
    }

    /// A replaced file survives a crash whole with its new content, and leaves no temporary file behind.
    @Test func aReplacedFileSurvivesACrashWhole() throws {
        let disk = SimulatedFileSystem()
        try disk.createDirectories("/d")
        try disk.replaceFile("/d/record", with: [1, 2, 3])
        try disk.replaceFile("/d/record", with: [4])
        var random = SeededRandom(seed: 9)
        let restarted = disk.crash(using: &random)
        #expect(try restarted.readAll("/d/record") == [4])
        #expect(restarted.paths == ["/d/record"])
    }
}
