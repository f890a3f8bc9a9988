import HearthCore
import HearthNode
import HearthStorage
import HearthSystem
import HearthTestKit
import Testing

@testable import HearthDatabase

/// A node's database keeps its data directory, log and snapshots on the file system it is opened with, so a
/// simulated disk replaces the real one whole.
@Suite struct DatabaseFileSystemTests {
    private static func configuration() -> NodeConfiguration {
        var configuration = NodeConfiguration()
        configuration.dataDirectory = "/machines/m1/data"
        configuration.fsync = .always
        return configuration
    }

    /// On a simulated disk, the database creates its nested data directory, logs and snapshots there, and a reopen
    /// from that disk finds every acknowledged write.
    @Test func aDatabaseRunsOnASimulatedDisk() async throws {
        let disk = SimulatedFileSystem()
        let database = try await Database.open(
            configuration: Self.configuration(), fileSystem: disk, log: Log(level: .error))
        for item in 1...3 {
            _ = try await database.write(
                namespace: "default", mutations: [try Fixture.set("items/i\(item)", #"{"n":\#(item)}"#)])
        }
        try database.writeSnapshot(try #require(database.view.capture()))
        _ = try await database.write(namespace: "default", mutations: [try Fixture.set("items/i4", #"{"n":4}"#)])
        let expected = try #require(database.view.capture()).roots
        await database.close()
        #expect(try disk.kind(of: "/machines/m1/data") == .directory)
        #expect(try disk.contents(ofDirectory: "/machines/m1/data").sorted() == ["snapshots", "wal"])
        #expect(try disk.contents(ofDirectory: "/machines/m1/data/snapshots").count == 1)

        let reopened = try await Database.open(
            configuration: Self.configuration(), fileSystem: disk, log: Log(level: .error))
        #expect(reopened.view.capture()?.roots == expected)
        #expect(expected["default"]?.child(Key(unchecked: "items")).childCount == 4)
        await reopened.close()
    }

    /// A data directory whose path runs through a file fails to open with a storage error naming that file.
    @Test func aFileInTheDataDirectorysPathFailsNamingIt() async throws {
        let disk = SimulatedFileSystem()
        try disk.createDirectories("/machines")
        try disk.replaceFile("/machines/m1", with: [0])
        let error = await #expect(throws: StorageError.self) {
            _ = try await Database.open(configuration: Self.configuration(), fileSystem: disk, log: Log(level: .error))
        }
        #expect(error?.path == "/machines/m1")
    }
}
