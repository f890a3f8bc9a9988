import Synchronization

/// The node's request counters and latency histograms, rendered in Prometheus text format at `/.metrics`.
public final class Metrics: Sendable {
    /// Upper bounds (seconds) of the latency histogram buckets.
    static let latencyBuckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10]

    private struct Histogram {
        var bucketCounts = [UInt64](repeating: 0, count: Metrics.latencyBuckets.count)
        var count: UInt64 = 0
        var sum: Double = 0
    }

    private struct State {
        var requests: [String: UInt64] = [:]
        var latency: [String: Histogram] = [:]
    }

    private let state = Mutex(State())

    public init() {}

    /// Counts one finished request.
    public func recordRequest(method: String, status: Int, seconds: Double) {
        self.state.withLock { state in
            state.requests["method=\"\(method)\",status=\"\(status)\"", default: 0] += 1
            var histogram = state.latency[method] ?? Histogram()
            histogram.count += 1
            histogram.sum += seconds
            for (index, bound) in Metrics.latencyBuckets.enumerated() where seconds <= bound {
                histogram.bucketCounts[index] += 1
            }
            state.latency[method] = histogram
        }
    }

    /// The Prometheus exposition, with the given gauges and counters from other subsystems appended.
    func render(extra: [(name: String, help: String, type: String, value: Double)]) -> String {
        var text = ""
        self.state.withLock { state in
            text += "# HELP hearth_http_requests_total REST and SSE requests by method and status.\n"
            text += "# TYPE hearth_http_requests_total counter\n"
            for (labels, count) in state.requests.sorted(by: { $0.key < $1.key }) {
                text += "hearth_http_requests_total{\(labels)} \(count)\n"
            }
            text += "# HELP hearth_http_request_duration_seconds Time from parsed request to queued response.\n"
            text += "# TYPE hearth_http_request_duration_seconds histogram\n"
            for (method, histogram) in state.latency.sorted(by: { $0.key < $1.key }) {
                for (index, bound) in Metrics.latencyBuckets.enumerated() {
                    text += "hearth_http_request_duration_seconds_bucket{method=\"\(method)\",le=\"\(bound)\"} "
                    text += "\(histogram.bucketCounts[index])\n"
                }
                text +=
                    "hearth_http_request_duration_seconds_bucket{method=\"\(method)\",le=\"+Inf\"} \(histogram.count)\n"
                text += "hearth_http_request_duration_seconds_sum{method=\"\(method)\"} \(histogram.sum)\n"
                text += "hearth_http_request_duration_seconds_count{method=\"\(method)\"} \(histogram.count)\n"
            }
        }
        for metric in extra {
            text += "# HELP \(metric.name) \(metric.help)\n# TYPE \(metric.name) \(metric.type)\n"
            text += "\(metric.name) \(Self.format(metric.value))\n"
        }
        return text
    }

    private static func format(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
