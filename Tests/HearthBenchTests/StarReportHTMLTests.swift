import HearthCore
import Testing

@testable import HearthBench

/// The HTML report says when, where, with which versions and options a run ran, and what it left behind.
@Suite struct StarReportHTMLTests {
    private static func report() -> StarReport {
        var tally = StarTally()
        tally.operations = 100
        for milliseconds in [1, 2, 3, 900] { tally.latency.record(.milliseconds(milliseconds)) }
        var options = StarsOptions()
        options.cleansUp = true
        var report = StarReport(options: options, run: "rh", seconds: 10, tally: tally, violations: [])
        report.series = [.init(second: 1, operations: 9435, p50Milliseconds: 1, p99Milliseconds: 3)]
        report.context = RunContext(
            startedUTC: "2026-11-28T03:47:30Z", host: "bench-host", benchVersion: "b1",
            nodeVersions: ["127.0.0.1:9000: 0.9.0"])
        return report
    }

    /// The header names the start in UTC, the host, both versions and every option; the page wraps to its width.
    @Test func theHeaderNamesTheRun() {
        let html = Self.report().html
        for text in [
            "2026-11-28T03:47:30Z", "bench-host", "<b>hearth-bench</b> b1", "<b>hearth</b> 127.0.0.1:9000: 0.9.0",
            "<b>--cleanup</b> yes", "<b>--clients</b> 64", "<b>--chaos</b> none", "viewBox=", "white-space:pre-wrap",
        ] {
            #expect(html.contains(text), "\(text)")
        }
        #expect(!html.contains("680px"))
    }

    /// Throughput is ticked in round thousands; the percentiles are on a log scale with their values printed.
    @Test func chartsAreRoundAndLogarithmic() {
        let html = Self.report().html
        #expect(html.contains(">2,000</text>") && html.contains(">10,000</text>") && !html.contains("2358.8"))
        #expect(html.contains("Latency percentiles, whole run (ms) (log scale)"))
        #expect(html.contains(">900</text>"), "the max is printed over its bar")
    }

    /// The JSON carries the same context for scripts.
    @Test func theJSONCarriesTheContext() {
        let json = Self.report().json
        #expect(json["context"]?["startedUTC"] == .string("2026-11-28T03:47:30Z"))
        #expect(json["context"]?["host"] == .string("bench-host") && json["context"]?["benchVersion"] == .string("b1"))
        #expect(json["leftPaths"] == .int(0) && json["connectionFailures"] == .int(0))
    }

    /// A node's version comes from `hearth_build_info` in its metrics, when it exports one.
    @Test func nodeVersionsComeFromTheMetrics() {
        let text = "# TYPE hearth_build_info gauge\nhearth_build_info{version=\"1.2.3\",swift=\"6.1\"} 1\n"
        #expect(RunContext.version(inMetrics: text) == "1.2.3")
        #expect(RunContext.version(inMetrics: "hearth_up 1\n") == nil)
    }

    /// The leftovers' curl quotes its URL and body for the shell and sets each path to null.
    @Test func theRemovalIsOneMultiPathUpdate() {
        var leftovers = RunLeftovers(paths: ["posts/r1-p0", "user-posts/r1-a0"], pattern: "posts/r1-p*")
        let node = StarsOptions.Node(host: "::1", port: 9001)
        let command = leftovers.removal(node: node, namespace: "it's")
        #expect(
            command.hasPrefix(
                "curl -X PATCH 'http://[::1]:9001/.json?ns=it'\\''s' -H 'Content-Type: application/json' -d '{"))
        #expect(command.contains("\"posts/r1-p0\":null") && command.contains("\"user-posts/r1-a0\":null"))
        #expect(leftovers.lines(node: node, namespace: "default").first?.hasPrefix("left behind  2 path(s)") == true)
        leftovers.isRemoved = true
        #expect(
            leftovers.lines(node: node, namespace: "default") == [
                "cleanup      removed the run's 2 path(s) (posts/r1-p*)"
            ])
    }
}
