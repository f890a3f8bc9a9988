public import HearthSystem
import HearthWire

/// What `/.metrics` shows: request counters and latency histograms for the two front ends, on a `MetricsRegistry`
/// that other subsystems add sampled values to (`NodeRuntime` registers the WAL, listener and network figures).
///
/// Two request families share one shape: REST/SSE requests by method and HTTP status, and realtime-protocol
/// requests by action and wire status. Every label value is from a fixed set: a method or action a client invents
/// is counted as `other`, so no client can add labels (each one is kept for the process's life); statuses are the
/// server's own.
public final class Metrics: Sendable {
    /// Upper bounds (seconds) of the latency histogram buckets.
    static let latencyBuckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10]
    static let latencyHelp = "Time from a parsed request to its queued response."

    /// Where every figure lives; `render()` shows all of it.
    public let registry: MetricsRegistry
    private let httpRequests: CounterFamily
    private let httpLatency: HistogramFamily
    private let wireRequests: CounterFamily
    private let wireLatency: HistogramFamily

    public init(registry: MetricsRegistry = MetricsRegistry()) {
        self.registry = registry
        self.httpRequests = registry.counter(
            "hearth_http_requests_total", help: "REST and SSE requests by method and status.",
            labels: ["method", "status"])
        self.httpLatency = registry.histogram(
            "hearth_http_request_duration_seconds", help: Self.latencyHelp, labels: ["method"],
            buckets: Self.latencyBuckets)
        self.wireRequests = registry.counter(
            "hearth_wire_requests_total", help: "Realtime-protocol requests by action and status.",
            labels: ["action", "status"])
        self.wireLatency = registry.histogram(
            "hearth_wire_request_duration_seconds", help: Self.latencyHelp, labels: ["action"],
            buckets: Self.latencyBuckets)
    }

    /// The label of a method or action no client may add.
    static let otherLabel = "other"
    /// The HTTP methods counted under their own name.
    static let httpMethods: Set<String> = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]

    /// Counts one finished REST or SSE request.
    public func recordRequest(method: String, status: Int, seconds: Double) {
        let method = Self.httpMethods.contains(method) ? method : Self.otherLabel
        self.httpRequests.increment([method, String(status)])
        self.httpLatency.observe(seconds, [method])
    }

    /// Counts one answered realtime-protocol request (`q`, `p`, `m`, …) with its wire status (`ok`, `datastale`, …).
    public func recordWireRequest(action: String, status: String, seconds: Double) {
        let action = WireRequest.actionNames.contains(action) ? action : Self.otherLabel
        self.wireRequests.increment([action, status])
        self.wireLatency.observe(seconds, [action])
    }

    /// The Prometheus exposition served at `/.metrics`.
    package func render() -> String {
        self.registry.render()
    }
}
