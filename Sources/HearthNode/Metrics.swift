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
    private let wireRequests: CounterFamily
    /// Each method's series, resolved once: recording a request builds and hashes no label arrays under the
    /// family's lock (every reply and acknowledgement records one).
    private let httpSeries: [String: Resolved]
    private let httpOther: Resolved
    /// Each action's series, resolved once.
    private let wireSeries: [String: Resolved]
    private let wireOther: Resolved
    /// The series of the writes (`p`, `m`) and of the REST writes (`PUT`, `PATCH`), from the tables above: nearly
    /// every request under a write load is one, and is told by comparing two short strings instead of hashing its
    /// name with a seeded hash for the table (`recordWireRequest`, `recordRequest`).
    private let wirePut: Resolved
    private let wireMerge: Resolved
    private let httpPut: Resolved
    private let httpPatch: Resolved

    /// The series one method or action records into: its label, its count with the usual status (`200`, `ok`),
    /// and its latency histogram. A class, so that looking one up for a request retains one reference, not each
    /// series.
    private final class Resolved: Sendable {
        let label: String
        let usual: CounterSeries
        let latency: HistogramSeries

        init(_ label: String, usual: String, in requests: CounterFamily, _ latency: HistogramFamily) {
            self.label = label
            self.usual = requests.series([label, usual])
            self.latency = latency.series([label])
        }

        /// Counts one request with `status` (the usual one when `usual`, else in `requests` under its label) and
        /// its latency.
        func record(usual: Bool, _ status: @autoclosure () -> String, _ seconds: Double, _ requests: CounterFamily) {
            if usual {
                self.usual.increment()
            } else {
                requests.increment([self.label, status()])
            }
            self.latency.observe(seconds)
        }
    }

    public init(registry: MetricsRegistry = MetricsRegistry()) {
        self.registry = registry
        let httpRequests = registry.counter(
            "hearth_http_requests_total", help: "REST and SSE requests by method and status.",
            labels: ["method", "status"])
        let httpLatency = registry.histogram(
            "hearth_http_request_duration_seconds", help: Self.latencyHelp, labels: ["method"],
            buckets: Self.latencyBuckets)
        let wireRequests = registry.counter(
            "hearth_wire_requests_total", help: "Realtime-protocol requests by action and status.",
            labels: ["action", "status"])
        let wireLatency = registry.histogram(
            "hearth_wire_request_duration_seconds", help: Self.latencyHelp, labels: ["action"],
            buckets: Self.latencyBuckets)
        (self.httpRequests, self.wireRequests) = (httpRequests, wireRequests)
        let http = { (method: String) in Resolved(method, usual: "200", in: httpRequests, httpLatency) }
        let wire = { (action: String) in Resolved(action, usual: "ok", in: wireRequests, wireLatency) }
        let httpSeries = Dictionary(uniqueKeysWithValues: Self.httpMethods.map { ($0, http($0)) })
        let httpOther = http(Self.otherLabel)
        let wireSeries = Dictionary(uniqueKeysWithValues: WireRequest.actionNames.map { ($0, wire($0)) })
        let wireOther = wire(Self.otherLabel)
        (self.httpSeries, self.httpOther, self.wireSeries, self.wireOther) = (
            httpSeries, httpOther, wireSeries, wireOther
        )
        (self.httpPut, self.httpPatch) = (httpSeries["PUT"] ?? httpOther, httpSeries["PATCH"] ?? httpOther)
        (self.wirePut, self.wireMerge) = (wireSeries["p"] ?? wireOther, wireSeries["m"] ?? wireOther)
    }

    /// The label of a method or action no client may add.
    static let otherLabel = "other"
    /// The HTTP methods counted under their own name.
    static let httpMethods: Set<String> = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]

    /// Counts one finished REST or SSE request. A write's series is read from its stored property and lent to
    /// `record` as it is: returned from a lookup function, it was retained, and its counter and histogram retained
    /// again for the calls on them (three retains and releases a request).
    public func recordRequest(method: String, status: Int, seconds: Double) {
        let usual = status == 200
        if method == "PATCH" { return self.httpPatch.record(usual: usual, String(status), seconds, self.httpRequests) }
        if method == "PUT" { return self.httpPut.record(usual: usual, String(status), seconds, self.httpRequests) }
        (self.httpSeries[method] ?? self.httpOther).record(usual: usual, String(status), seconds, self.httpRequests)
    }

    /// Counts one answered realtime-protocol request (`q`, `p`, `m`, …) with its wire status (`ok`, `datastale`, …),
    /// a write's series lent as `recordRequest` lends it.
    public func recordWireRequest(action: String, status: String, seconds: Double) {
        let usual = status == "ok"
        if action == "m" { return self.wireMerge.record(usual: usual, status, seconds, self.wireRequests) }
        if action == "p" { return self.wirePut.record(usual: usual, status, seconds, self.wireRequests) }
        (self.wireSeries[action] ?? self.wireOther).record(usual: usual, status, seconds, self.wireRequests)
    }

    /// The Prometheus exposition served at `/.metrics`.
    package func render() -> String {
        self.registry.render()
    }
}
