import HearthCore
import HearthTestKit
import Testing

@testable import HearthBench

/// A run names where it writes before it writes, and `--cleanup` removes exactly that once the checks are done;
/// without it the report says what is left and how to remove it.
@Suite(.serialized) struct StarsCleanupLoopbackTests {
    private static func options(_ server: ServerProcess, cleansUp: Bool) -> StarsOptions {
        var options = StarsOptions()
        options.nodes = [StarsOptions.Node(host: "127.0.0.1", port: server.port)]
        options.clients = 4
        options.posts = 10
        options.users = 20
        options.duration = .seconds(1)
        options.cleansUp = cleansUp
        return options
    }

    /// The JSON at `/path` of the node, read on a thread of its own.
    private static func read(_ server: ServerProcess, _ path: String) async throws -> String {
        try await HTTPTestClient.request(port: server.port, "GET", "/\(path).json").text
    }

    /// With `--cleanup`, the run's checks pass and then its posts and authors' copies are gone.
    @Test func cleanupRemovesWhatTheRunWrote() async throws {
        let server = try await ServerProcess()
        defer { server.terminate() }
        let announced = Slot<String>()
        let report = try await StarsBenchmark.run(
            Self.options(server, cleansUp: true), isTerminal: false, announce: { announced.set($0) }
        ) { _ in }
        #expect(report.invariantsOk, "\(report.violations)")
        let pattern = "posts/\(report.run)-p* and user-posts/\(report.run)-a*"
        #expect(announced.current?.hasPrefix("writing under \(pattern)") == true, "\(announced.current ?? "")")
        #expect(report.leftovers?.isRemoved == true && report.json["leftPaths"] == .int(0))
        #expect(try await Self.read(server, "posts") == "null")
        #expect(try await Self.read(server, "user-posts") == "null")
        #expect(report.text.contains("cleanup      removed the run's 18 path(s)"))
    }

    /// Without `--cleanup`, the data stays and the report's last lines count it and give the curl that removes it.
    @Test func withoutCleanupTheReportSaysWhatIsLeft() async throws {
        let server = try await ServerProcess()
        defer { server.terminate() }
        let report = try await StarsBenchmark.run(Self.options(server, cleansUp: false), isTerminal: false) { _ in }
        #expect(report.invariantsOk, "\(report.violations)")
        #expect(try await Self.read(server, "posts") != "null")
        #expect(report.json["leftPaths"] == .int(18))
        let lines = report.text.split(separator: "\n")
        #expect(lines.dropLast().last?.hasPrefix("left behind  18 path(s)") == true)
        #expect(lines.last?.contains("curl -X PATCH 'http://127.0.0.1:\(server.port)/.json?ns=default'") == true)

        // The update the curl sends removes the run.
        let leftovers = try #require(report.leftovers)
        let body = JSONValue.object(
            Dictionary(uniqueKeysWithValues: leftovers.paths.map { (JSONKey($0), JSONValue.null) }))
        let answer = try await HTTPTestClient.request(
            port: server.port, "PATCH", "/.json?ns=default", body: String(decoding: body.jsonBytes(), as: UTF8.self))
        #expect(answer.status == 200)
        #expect(try await Self.read(server, "posts") == "null")
        #expect(try await Self.read(server, "user-posts") == "null")
    }
}
