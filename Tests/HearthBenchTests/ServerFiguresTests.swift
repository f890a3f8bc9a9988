import HearthCore
import Testing

@testable import HearthBench

/// The server figures of a run: counters' increases and gauges from two scrapes of `/.metrics`, and how the report
/// shows them and the latency of each kind of operation.
@Suite struct ServerFiguresTests {
    static let before = """
        # HELP hearth_wal_fsyncs_total fsync calls made by the write-ahead log.
        # TYPE hearth_wal_fsyncs_total counter
        hearth_wal_fsyncs_total 100
        hearth_wire_requests_total{action="m",status="ok"} 10
        hearth_wire_request_duration_seconds_bucket{action="m",le="0.001"} 4
        hearth_wire_request_duration_seconds_sum{action="m"} 0.5
        hearth_wire_sessions 3
        """
    static let after = """
        hearth_wal_fsyncs_total 250
        hearth_wal_records_total 900
        hearth_wire_requests_total{action="m",status="ok"} 70
        hearth_wire_requests_total{action="p",status="datastale"} 5
        hearth_wire_request_duration_seconds_bucket{action="m",le="0.001"} 9
        hearth_wire_request_duration_seconds_sum{action="m"} 1.25
        hearth_wire_sessions 64
        not a sample
        """

    @Test func countersRiseGaugesEndAndBucketsAreLeftOut() {
        let figures = ServerFigures(node: "127.0.0.1:9001", before: Self.before, after: Self.after)
        #expect(figures.counters["hearth_wal_fsyncs_total"] == 150)
        #expect(figures.counters["hearth_wal_records_total"] == 900, "a counter new in the second scrape counts all")
        #expect(figures.total("hearth_wire_requests_total") == 65)
        #expect(figures.counters["hearth_wire_request_duration_seconds_sum{action=\"m\"}"] == 0.75)
        #expect(figures.current("hearth_wire_sessions") == 64)
        #expect(!figures.counters.keys.contains { $0.contains("_bucket") })
        #expect(figures.gauges.count == 1 && figures.failure == nil)
    }

    @Test func aCounterThatFellCountsFromZero() {
        let figures = ServerFigures(
            node: "n", before: "hearth_wal_fsyncs_total 500", after: "hearth_wal_fsyncs_total 40")
        #expect(figures.counters["hearth_wal_fsyncs_total"] == 40, "the node restarted during the run")
    }

    @Test func theReportShowsEachNodeAndEachKindOfOperation() {
        var tally = StarTally()
        tally.operations = 3
        tally.record(.milliseconds(2), of: "increment")
        tally.record(.milliseconds(2), of: "increment")
        tally.record(.milliseconds(40), of: "transaction")
        var other = StarTally()
        other.record(.milliseconds(8), of: "rest")
        tally.merge(other)
        #expect(tally.latency.count == 4 && tally.byOperation["increment"]?.count == 2)
        var options = StarsOptions()
        options.mode = .mixed
        var report = StarReport(options: options, run: "rs", seconds: 1, tally: tally, violations: [])
        report.server = [
            ServerFigures(node: "127.0.0.1:9001", before: Self.before, after: Self.after),
            ServerFigures(node: "127.0.0.1:9002", failure: "/.metrics could not be read: refused"),
        ]
        let text = report.text
        #expect(text.contains("  transaction p50 40"))
        #expect(text.contains("  rest        p50 8"))
        #expect(text.contains("127.0.0.1:9001: 65 realtime and 0 REST requests, 150 log fsyncs for 900 records, 64"))
        #expect(text.contains("127.0.0.1:9002: /.metrics could not be read: refused"))
        let json = report.json
        #expect(json["latencyMsByOperation"]?["transaction"]?["max"] == .double(40))
        guard case .array(let nodes)? = json["server"], nodes.count == 2 else {
            Issue.record("no server figures in \(json)")
            return
        }
        #expect(nodes[0]["counters"]?["hearth_wal_fsyncs_total"] == .double(150))
        #expect(nodes[1]["failure"] == .string("/.metrics could not be read: refused"))
    }

    @Test func aRunOfOneKindHasNoLinesByKind() {
        var tally = StarTally()
        tally.record(.milliseconds(2), of: "increment")
        let report = StarReport(options: StarsOptions(), run: "r1", seconds: 1, tally: tally, violations: [])
        #expect(!report.text.contains("  increment "))
    }
}
