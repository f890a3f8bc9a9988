import Foundation
import HearthCore
import HearthSystem
import HearthTestKit
import Testing

@testable import HearthBench

/// Whole runs against a `hearth serve` process: every listener gets every event, paced or all at once, and a
/// server that is not there ends the run with a message saying so.
@Suite(.serialized) struct FanoutBenchmarkLoopbackTests {
    /// Realtime puts and PUTs pipelined on one keep-alive connection, paced or all at once, each reach every
    /// listener once.
    @Test(arguments: [Duration.milliseconds(20), .zero], FanoutOptions.Writer.allCases)
    func everyListenerGetsEveryEvent(interval: Duration, writer: FanoutOptions.Writer) async throws {
        let server = try await ServerProcess()
        defer { server.terminate() }
        var options = FanoutOptions()
        options.server = StarsOptions.Node(host: "127.0.0.1", port: server.port)
        options.listeners = 30
        options.writes = 5
        options.interval = interval
        options.writer = writer
        options.serverPID = server.process.identifier
        let report = try await FanoutBenchmark.run(options)
        #expect(report.isComplete, "\(report.text)")
        #expect(report.delivered == 150 && report.complete == 30 && report.unexpected == 0)
        #expect(report.latency.count == 150 && report.latency.maximumMilliseconds > 0)
        #expect(report.serverMicrosecondsPerEvent != nil)
        #expect(report.json.jsonString().contains(#""ok":true"#))
    }

    @Test func aServerNobodyRunsIsNamed() async throws {
        var options = FanoutOptions()
        options.server = StarsOptions.Node(host: "127.0.0.1", port: try FreePorts.take(1)[0])
        options.listeners = 3
        options.writes = 1
        await #expect(throws: FanoutRunError.self) { _ = try await FanoutBenchmark.run(options) }
    }
}
