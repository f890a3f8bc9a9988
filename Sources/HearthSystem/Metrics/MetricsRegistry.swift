/// The metrics of one process: families of labelled counters, gauges and histograms plus values sampled from
/// other subsystems, rendered together in the Prometheus text format.
///
/// Families are created once at start-up (a name registered twice is a bug and traps) and then updated from any
/// thread; each family has its own lock, so recording a request contends only with the same family.
public final class MetricsRegistry: Sendable {
    private let families = Lock<[any MetricFamily]>([])

    public init() {}

    /// Registers a counter family with the given label names (none for a single series).
    public func counter(_ name: String, help: String, labels: [String] = []) -> CounterFamily {
        self.register(CounterFamily(MetricDescriptor(name: name, help: help, labelNames: labels)))
    }

    /// Registers a gauge family with the given label names.
    public func gauge(_ name: String, help: String, labels: [String] = []) -> GaugeFamily {
        self.register(GaugeFamily(MetricDescriptor(name: name, help: help, labelNames: labels)))
    }

    /// Registers a histogram family with the given label names and bucket upper bounds (strictly increasing).
    public func histogram(_ name: String, help: String, labels: [String] = [], buckets: [Double]) -> HistogramFamily {
        self.register(
            HistogramFamily(MetricDescriptor(name: name, help: help, labelNames: labels), buckets: buckets))
    }

    /// Exports a total another subsystem keeps, read by `read` at every render.
    public func sampledCounter(_ name: String, help: String, _ read: @escaping @Sendable () -> Double) {
        _ = self.register(
            SampledMetric(
                descriptor: MetricDescriptor(name: name, help: help), type: "counter", read: { [([], read())] }))
    }

    /// Exports a current value another subsystem keeps, read by `read` at every render.
    public func sampledGauge(_ name: String, help: String, _ read: @escaping @Sendable () -> Double) {
        _ = self.register(
            SampledMetric(
                descriptor: MetricDescriptor(name: name, help: help), type: "gauge", read: { [([], read())] }))
    }

    /// Exports labelled totals another subsystem keeps: `read` returns every series (label values in the order of
    /// `labels`) at every render.
    public func sampledCounters(
        _ name: String, help: String, labels: [String],
        _ read: @escaping @Sendable () -> [(labels: [String], value: Double)]
    ) {
        _ = self.register(
            SampledMetric(
                descriptor: MetricDescriptor(name: name, help: help, labelNames: labels), type: "counter", read: read))
    }

    /// Exports labelled current values another subsystem keeps: `read` returns every series at every render.
    public func sampledGauges(
        _ name: String, help: String, labels: [String],
        _ read: @escaping @Sendable () -> [(labels: [String], value: Double)]
    ) {
        _ = self.register(
            SampledMetric(
                descriptor: MetricDescriptor(name: name, help: help, labelNames: labels), type: "gauge", read: read))
    }

    /// Every family in registration order, in the Prometheus text exposition format (version 0.0.4). Sampled
    /// values are read outside the registry's lock.
    public func render() -> String {
        let families = self.families.withLock { $0 }
        var text = ""
        for family in families {
            family.render(into: &text)
        }
        return text
    }

    private func register<Family: MetricFamily>(_ family: Family) -> Family {
        self.families.withLock { families in
            precondition(
                !families.contains { $0.name == family.name },
                "metric '\(family.name)' is registered twice; register each family once and keep its handle"
            )
            families.append(family)
        }
        return family
    }
}
