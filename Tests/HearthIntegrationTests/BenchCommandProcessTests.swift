import Foundation
import HearthCore
import HearthTestKit
import Testing

/// `hearth bench` as a user runs it: `stars` and `fanout` hand over to `hearth-bench` and write their JSON reports,
/// and a name that is no benchmark exits non-zero.
@Suite struct BenchCommandProcessTests {
    /// Runs `hearth` with `arguments`; returns its exit status.
    private static func hearth(_ arguments: [String]) async throws -> Int32 {
        try await ProcessOutput.run(URL(fileURLWithPath: try ServerProcess.binaryPath()), arguments).status
    }

    @Test func starsWritesAReportScriptsCanRead() async throws {
        let server = try await ServerProcess()
        defer { server.terminate() }
        let directory = try TemporaryDirectory("bench-stars")
        defer { directory.remove() }
        let report = directory.path + "/report.json"
        let status = try await Self.hearth([
            "bench", "stars", "--nodes", "127.0.0.1:\(server.port)", "--clients", "4", "--posts", "2", "--users", "8",
            "--duration", "1s", "--json", report,
        ])
        #expect(status == 0)
        let json = try JSONReader.parseValue(Array(try Data(contentsOf: URL(fileURLWithPath: report))))
        #expect(json["invariantsOk"] == .bool(true) && json["gaveUp"] == .int(0))
        #expect(json["opsPerSecond"] != nil && json["latencyMs"]?["p99"] != nil)
    }

    @Test func fanoutWritesAReportScriptsCanRead() async throws {
        let server = try await ServerProcess()
        defer { server.terminate() }
        let directory = try TemporaryDirectory("bench-fanout")
        defer { directory.remove() }
        let report = directory.path + "/report.json"
        let status = try await Self.hearth([
            "bench", "fanout", "--server", "127.0.0.1:\(server.port)", "--listeners", "10", "--writes", "3",
            "--interval", "10ms", "--json", report,
        ])
        #expect(status == 0)
        let json = try JSONReader.parseValue(Array(try Data(contentsOf: URL(fileURLWithPath: report))))
        #expect(json["ok"] == .bool(true) && json["delivered"] == .int(30))
        #expect(json["latencyMs"]?["p99"] != nil)
    }

    @Test func anUnknownBenchmarkExitsNonZero() async throws {
        #expect(try await Self.hearth(["bench", "stares"]) == 2)
        #expect(try await Self.hearth(["bench", "stars", "--clients", "none"]) == 2)
        #expect(try await Self.hearth(["bench", "fanout", "--listeners", "none"]) == 2)
        #expect(try await Self.hearth(["bench"]) == 0)
    }
}
