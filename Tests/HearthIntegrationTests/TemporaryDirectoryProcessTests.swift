import Foundation
import HearthTestKit
import Testing

/// Tests leave no directory behind: a scoped temporary directory goes when its body ends, and a `hearth serve`
/// child's own data directory goes once the last node on it has exited, while one the test gave stays the test's.
@Suite struct TemporaryDirectoryProcessTests {
    private struct Planned: Error {}

    /// `TemporaryDirectory.with` removes the directory, with what was written in it, when the body returns or throws.
    @Test func aScopedDirectoryGoesWhenItsBodyEnds() async throws {
        let returned = try await TemporaryDirectory.with("scoped") { directory in
            try "x".write(toFile: directory.child("file"), atomically: false, encoding: .utf8)
            return directory.path
        }
        #expect(!FileManager.default.fileExists(atPath: returned))
        var thrown = ""
        await #expect(throws: Planned.self) {
            try await TemporaryDirectory.with("scoped") { directory in
                thrown = directory.path
                throw Planned()
            }
        }
        #expect(!thrown.isEmpty && !FileManager.default.fileExists(atPath: thrown))
    }

    /// A node's own data directory outlives the node while a node restarted on it runs, and goes once that one has
    /// exited and is gone too; a directory the test gave the node is left alone.
    @Test func aNodesOwnDataDirectoryGoesWithTheLastNodeOnIt() async throws {
        var first: ServerProcess? = try await ServerProcess()
        let path = try #require(first?.dataDirectory)
        await first?.stop()
        var restarted: ServerProcess? = try await ServerProcess(dataDirectory: path)
        first = nil
        try await Task.sleep(for: .milliseconds(200))
        #expect(FileManager.default.fileExists(atPath: path), "the restarted node's directory went")
        let answer = try await HTTPTestClient.request(port: try #require(restarted?.port), "GET", "/.json")
        #expect(answer.status == 200)
        await restarted?.stop()
        restarted = nil
        #expect(await eventually(seconds: 10) { !FileManager.default.fileExists(atPath: path) }, "\(path) is left")

        let given = try TemporaryDirectory("given-data")
        defer { given.remove() }
        var node: ServerProcess? = try await ServerProcess(dataDirectory: given.path)
        await node?.stop()
        node = nil
        try await Task.sleep(for: .milliseconds(200))
        #expect(FileManager.default.fileExists(atPath: given.path))
    }
}
