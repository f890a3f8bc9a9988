import Foundation
import HearthCore
import HearthTestKit
import Synchronization
import Testing

@testable import HearthBench

/// Whole runs against a `hearth serve` process: each mode finishes with its checks passing, and a node that
/// cannot be reached or refuses the run's writes ends the run with a message saying so.
@Suite(.serialized) struct StarsBenchmarkLoopbackTests {
    private static func options(_ server: ServerProcess, _ mode: StarsOptions.Mode, hot: Bool = false) -> StarsOptions {
        var options = StarsOptions()
        options.nodes = [StarsOptions.Node(host: "127.0.0.1", port: server.port)]
        options.clients = 6
        options.posts = 3
        options.users = 30
        options.duration = .seconds(2)
        options.mode = mode
        options.hot = hot
        return options
    }

    @Test(arguments: [
        (StarsOptions.Mode.increment, false), (.increment, true), (.transaction, false), (.transaction, true),
    ])
    func aRunKeepsEveryStar(mode: StarsOptions.Mode, hot: Bool) async throws {
        let server = try await ServerProcess()
        defer { server.terminate() }
        let lines = Mutex<[String]>([])
        let report = try await StarsBenchmark.run(Self.options(server, mode, hot: hot), isTerminal: false) { line in
            lines.withLock { $0.append(line) }
        }
        #expect(report.invariantsOk, "\(report.violations)")
        #expect(report.tally.operations > 0 && report.tally.errors.isEmpty)
        #expect(lines.withLock { $0.count } == 2)
        let figures = try #require(report.server.first)
        #expect(figures.failure == nil)
        #expect(figures.total("hearth_wire_requests_total") >= Double(report.tally.operations))
        #expect(report.tally.byOperation[mode == .increment ? "increment" : "transaction"] != nil)
        if mode != .increment {
            #expect(report.tally.attempts.values.reduce(0, +) + report.tally.gaveUp >= report.tally.operations)
        }
        if mode == .mixed {
            #expect(report.readers == 4 && report.readerUpdates > 0)
        }
    }

    @Test func aNodeNobodyServesIsNamed() async throws {
        let port = try FreePorts.take(1)[0]
        var options = StarsOptions()
        options.nodes = [StarsOptions.Node(host: "127.0.0.1", port: port)]
        options.clients = 2
        options.users = 2
        await #expect(throws: StarsRunError.self) {
            _ = try await StarsBenchmark.run(options, isTerminal: false, connectTimeout: .milliseconds(500)) { _ in }
        }
    }

    @Test func chaosWithoutItsScriptEndsTheRunBeforeItStarts() async throws {
        let server = try await ServerProcess()
        defer { server.terminate() }
        var options = Self.options(server, .increment)
        options.killsLeader = true
        options.clusterScript = "/nonexistent/scripts/cluster"
        do {
            _ = try await StarsBenchmark.run(options, isTerminal: false) { _ in }
            Issue.record("the run started")
        } catch {
            #expect(error.description.contains("/nonexistent/scripts/cluster"), "\(error)")
        }
    }

    @Test func chaosAgainstASingleNodeIsReportedAsFailed() async throws {
        let server = try await ServerProcess()
        defer { server.terminate() }
        var options = Self.options(server, .increment)
        options.killsLeader = true
        options.clusterScript = "/bin/true"
        let report = try await StarsBenchmark.run(options, isTerminal: false) { _ in }
        #expect(report.violations.contains { $0.hasPrefix("chaos: ") }, "\(report.violations)")
        #expect(report.json["chaos"]?["failure"] != nil && report.json["chaos"]?["failure"] != .null)
    }

    @Test func rulesThatRefuseTheRunEndItBeforeItStarts() async throws {
        let directory = try TemporaryDirectory("stars-rules")
        defer { directory.remove() }
        let rules = directory.path + "/rules.json"
        try Data(#"{"rules": {".read": true, ".write": false}}"#.utf8).write(to: URL(fileURLWithPath: rules))
        let server = try await ServerProcess(arguments: ["--rules", rules])
        defer { server.terminate() }
        do {
            _ = try await StarsBenchmark.run(Self.options(server, .increment), isTerminal: false) { _ in }
            Issue.record("the run started")
        } catch {
            #expect(error.description.contains("permission_denied"), "\(error)")
        }
    }
}
