/// A value owned by another subsystem (WAL fsyncs, open connections) and read when the registry renders, so the
/// subsystem keeps its own counters and pays nothing per event for being exported.
struct SampledMetric: MetricFamily {
    let descriptor: MetricDescriptor
    /// `counter` or `gauge`.
    let type: String
    let read: @Sendable () -> Double

    var name: String { self.descriptor.name }

    func render(into text: inout String) {
        text += self.descriptor.header(type: self.type)
        text += self.descriptor.sample([], value: PrometheusText.number(self.read()))
    }
}
