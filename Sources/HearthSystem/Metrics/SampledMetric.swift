/// Values owned by another subsystem (WAL fsyncs, open connections, each shard's commit index) and read when the
/// registry renders, so the subsystem keeps its own figures and pays nothing per event for being exported.
struct SampledMetric: MetricFamily {
    let descriptor: MetricDescriptor
    /// `counter` or `gauge`.
    let type: String
    /// Every series: its label values (one per declared label) and its value.
    let read: @Sendable () -> [(labels: [String], value: Double)]

    var name: String { self.descriptor.name }

    func render(into text: inout String) {
        text += self.descriptor.header(type: self.type)
        let series = self.read().sorted { $0.labels.lexicographicallyPrecedes($1.labels) }
        for (labels, value) in series {
            self.descriptor.check(labels)
            text += self.descriptor.sample(labels, value: PrometheusText.number(value))
        }
    }
}
