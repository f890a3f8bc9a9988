import Synchronization

/// The node's request counters and latency histograms, rendered in Prometheus text format at `/.metrics`.
///
/// Two request families share one shape: REST/SSE requests by method and HTTP status, and realtime-protocol
/// requests by action and wire status.
public final class Metrics: Sendable {
    /// Upper bounds (seconds) of the latency histogram buckets.
    static let latencyBuckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10]

    private struct Histogram {
        var bucketCounts = [UInt64](repeating: 0, count: Metrics.latencyBuckets.count)
        var count: UInt64 = 0
        var sum: Double = 0

        mutating func observe(_ seconds: Double) {
            self.count += 1
            self.sum += seconds
            for (index, bound) in Metrics.latencyBuckets.enumerated() where seconds <= bound {
                self.bucketCounts[index] += 1
            }
        }
    }

    /// Requests of one kind: counts by (operation, outcome) and latency by operation.
    private struct Family {
        var counts: [String: UInt64] = [:]
        var latency: [String: Histogram] = [:]
    }

    private struct State {
        var http = Family()
        var wire = Family()
    }

    private let state = Mutex(State())

    public init() {}

    /// Counts one finished REST or SSE request.
    public func recordRequest(method: String, status: Int, seconds: Double) {
        self.state.withLock { state in
            state.http.counts["method=\"\(method)\",status=\"\(status)\"", default: 0] += 1
            state.http.latency[method, default: Histogram()].observe(seconds)
        }
    }

    /// Counts one answered realtime-protocol request (`q`, `p`, `m`, …) with its wire status (`ok`, `datastale`, …).
    public func recordWireRequest(action: String, status: String, seconds: Double) {
        self.state.withLock { state in
            state.wire.counts["action=\"\(action)\",status=\"\(status)\"", default: 0] += 1
            state.wire.latency[action, default: Histogram()].observe(seconds)
        }
    }

    /// The Prometheus exposition, with the given gauges and counters from other subsystems appended.
    func render(extra: [(name: String, help: String, type: String, value: Double)]) -> String {
        var text = ""
        self.state.withLock { state in
            Self.render(
                state.http, name: "hearth_http", label: "method",
                help: "REST and SSE requests by method and status", into: &text)
            Self.render(
                state.wire, name: "hearth_wire", label: "action",
                help: "Realtime-protocol requests by action and status", into: &text)
        }
        for metric in extra {
            text += "# HELP \(metric.name) \(metric.help)\n# TYPE \(metric.name) \(metric.type)\n"
            text += "\(metric.name) \(Self.format(metric.value))\n"
        }
        return text
    }

    /// Writes `<name>_requests_total` and `<name>_request_duration_seconds` for one family.
    private static func render(_ family: Family, name: String, label: String, help: String, into text: inout String) {
        text += "# HELP \(name)_requests_total \(help).\n# TYPE \(name)_requests_total counter\n"
        for (labels, count) in family.counts.sorted(by: { $0.key < $1.key }) {
            text += "\(name)_requests_total{\(labels)} \(count)\n"
        }
        let histogram = "\(name)_request_duration_seconds"
        text += "# HELP \(histogram) Time from a parsed request to its queued response.\n"
        text += "# TYPE \(histogram) histogram\n"
        for (operation, latency) in family.latency.sorted(by: { $0.key < $1.key }) {
            for (index, bound) in Metrics.latencyBuckets.enumerated() {
                text +=
                    "\(histogram)_bucket{\(label)=\"\(operation)\",le=\"\(bound)\"} \(latency.bucketCounts[index])\n"
            }
            text += "\(histogram)_bucket{\(label)=\"\(operation)\",le=\"+Inf\"} \(latency.count)\n"
            text += "\(histogram)_sum{\(label)=\"\(operation)\"} \(latency.sum)\n"
            text += "\(histogram)_count{\(label)=\"\(operation)\"} \(latency.count)\n"
        }
    }

    private static func format(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
