import HearthDatabase
import HearthSystem
import Testing

@testable import HearthNode

/// The request counters and latency histograms of `/.metrics`, recorded through the series each method or action
/// resolves to once.
@Suite struct MetricsSeriesTests {
    /// Every realtime action and HTTP method counts under its own label, the writes (told apart without a hash) as
    /// every other one: the usual status, another status, and the latency count; an unknown name under `other`.
    @Test func eachActionAndMethodCountsUnderItsOwnLabel() {
        let metrics = Metrics()
        for action in ["p", "m", "g", "q", "om"] {
            metrics.recordWireRequest(action: action, status: "ok", seconds: 0.001)
            metrics.recordWireRequest(action: action, status: "ok", seconds: 0.002)
            metrics.recordWireRequest(action: action, status: "datastale", seconds: 0.003)
        }
        metrics.recordWireRequest(action: "zz", status: "ok", seconds: 0.001)
        for method in ["PUT", "PATCH", "GET", "DELETE"] {
            metrics.recordRequest(method: method, status: 200, seconds: 0.001)
            metrics.recordRequest(method: method, status: 412, seconds: 0.002)
        }
        metrics.recordRequest(method: "BREW", status: 200, seconds: 0.001)
        let text = metrics.render()
        for action in ["p", "m", "g", "q", "om"] {
            #expect(text.contains(#"hearth_wire_requests_total{action="\#(action)",status="ok"} 2"#))
            #expect(text.contains(#"hearth_wire_requests_total{action="\#(action)",status="datastale"} 1"#))
            #expect(text.contains(#"hearth_wire_request_duration_seconds_count{action="\#(action)"} 3"#))
        }
        #expect(text.contains(#"hearth_wire_requests_total{action="other",status="ok"} 1"#))
        for method in ["PUT", "PATCH", "GET", "DELETE"] {
            #expect(text.contains(#"hearth_http_requests_total{method="\#(method)",status="200"} 1"#))
            #expect(text.contains(#"hearth_http_requests_total{method="\#(method)",status="412"} 1"#))
            #expect(text.contains(#"hearth_http_request_duration_seconds_count{method="\#(method)"} 2"#))
        }
        #expect(text.contains(#"hearth_http_requests_total{method="other",status="200"} 1"#))
        #expect(!text.contains("zz") && !text.contains("BREW"))
    }

    /// A latency is recorded as its duration's seconds, as the duration's components give them: from a nanosecond to
    /// hours, and below zero.
    @Test func aDurationIsRecordedAsItsSeconds() {
        let durations: [Duration] = [
            .zero, .nanoseconds(1), .nanoseconds(999), .microseconds(37), .milliseconds(2), .milliseconds(999),
            .seconds(1), .milliseconds(1_500), .seconds(59) + .nanoseconds(1), .seconds(86_400) + .milliseconds(3),
            .zero - .milliseconds(250),
        ]
        for duration in durations {
            let (seconds, attoseconds) = duration.components
            let expected = Double(seconds) + Double(attoseconds) / 1e18
            let recorded = Database.seconds(duration)
            #expect(abs(recorded - expected) <= 1e-15 * max(1, abs(expected)), "\(duration)")
        }
    }
}
