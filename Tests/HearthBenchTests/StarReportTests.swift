import Foundation
import HearthCore
import Testing

@testable import HearthBench

/// Latency percentiles, the JSON report scripts read, and the progress line.
@Suite struct StarReportTests {
    @Test func percentilesAreWithinOnePercent() {
        var histogram = LatencyHistogram()
        for microseconds in 1...10_000 { histogram.record(microseconds: Double(microseconds)) }
        for (fraction, expected) in [(0.5, 5.0), (0.9, 9.0), (0.99, 9.9), (1.0, 10.0)] {
            let measured = histogram.milliseconds(at: fraction)
            #expect(abs(measured - expected) <= expected * 0.011, "p\(fraction): \(measured)")
        }
        #expect(histogram.maximumMilliseconds == 10 && LatencyHistogram().milliseconds(at: 0.99) == 0)
    }

    @Test func histogramsAddUp() {
        var fast = LatencyHistogram()
        var slow = LatencyHistogram()
        for _ in 0..<99 { fast.record(.milliseconds(1)) }
        slow.record(.seconds(2))
        fast.merge(slow)
        #expect(fast.count == 100 && fast.maximumMilliseconds == 2000)
        #expect(fast.milliseconds(at: 0.99) < 1.02 && fast.milliseconds(at: 1) == 2000)
    }

    @Test func theJSONHasWhatScriptsRead() throws {
        var tally = StarTally()
        tally.operations = 50
        tally.gaveUp = 2
        tally.attempts = [1: 40, 3: 10]
        tally.errors = ["permission_denied": 1]
        for _ in 0..<50 { tally.latency.record(.milliseconds(4)) }
        let report = StarReport(options: StarsOptions(), run: "rj", seconds: 10, tally: tally, violations: ["x: y"])
        let json = report.json
        #expect(json["opsPerSecond"] == .double(5) && json["invariantsOk"] == .bool(false))
        #expect(json["gaveUp"] == .int(2) && json["attempts"]?["3"] == .int(10))
        #expect(json["violations"] == .array([.string("x: y")]) && json["errors"]?["permission_denied"] == .int(1))
        guard case .double(let p99)? = json["latencyMs"]?["p99"] else {
            Issue.record("no latencyMs.p99 in \(json)")
            return
        }
        #expect(abs(p99 - 4) < 0.05)
        #expect(report.text.contains("FAILED, 1 violation(s)") && report.text.contains("x: y"))
    }

    @Test func theHTMLPageStandsAlone() {
        var tally = StarTally()
        tally.operations = 30
        tally.attempts = [1: 20, 2: 10]
        for _ in 0..<30 { tally.latency.record(.milliseconds(3)) }
        var options = StarsOptions()
        options.mode = .transaction
        var report = StarReport(options: options, run: "rh", seconds: 2, tally: tally, violations: ["posts/<b>: lost"])
        report.series = [
            StarReport.Second(second: 1, operations: 10, p50Milliseconds: 2, p99Milliseconds: 4),
            StarReport.Second(second: 2, operations: 20, p50Milliseconds: 3, p99Milliseconds: 5),
        ]
        let page = report.html
        #expect(page.hasPrefix("<!doctype html>") && page.hasSuffix("</html>"))
        #expect(page.components(separatedBy: "<svg").count == 5, "throughput, latency, percentiles, attempts")
        #expect(!page.contains("<script") && !page.contains("src=") && !page.contains("href="))
        #expect(page.contains("posts/&lt;b&gt;: lost") && !page.contains("posts/<b>"))
    }

    @Test func progressIsAPlainLineOffATerminal() {
        let second = StarReport.Second(second: 3, operations: 4812, p50Milliseconds: 11.23, p99Milliseconds: 25.3)
        var tally = StarTally()
        tally.retries = 12
        #expect(
            ProgressLine.render(second: second, of: 10, tally: tally, isTerminal: false)
                == "3/10 s: 4812 ops/s  p50 11.2 ms  p99 25.3 ms  retries 12  errors 0")
        let drawn = ProgressLine.render(second: second, of: 10, tally: tally, isTerminal: true)
        #expect(drawn.hasPrefix("\r[######--------------] 3/10 s") && drawn.hasSuffix("\u{1B}[K"))
    }
}
