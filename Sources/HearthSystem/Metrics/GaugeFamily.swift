/// A Prometheus gauge family: values that go up and down, one per combination of label values.
public final class GaugeFamily: MetricFamily {
    private let descriptor: MetricDescriptor
    private let series = Lock<[[String]: Double]>([:])

    init(_ descriptor: MetricDescriptor) {
        self.descriptor = descriptor
    }

    public var name: String { self.descriptor.name }

    /// Sets the series with `labels` to `value`.
    public func set(_ value: Double, _ labels: [String] = []) {
        self.descriptor.check(labels)
        self.series.withLock { $0[labels] = value }
    }

    /// Adds `delta` (negative to subtract) to the series with `labels`, which starts at 0.
    public func add(_ delta: Double, _ labels: [String] = []) {
        self.descriptor.check(labels)
        self.series.withLock { $0[labels, default: 0] += delta }
    }

    /// The current value of the series with `labels`; 0 if it was never set.
    public func value(_ labels: [String] = []) -> Double {
        self.series.withLock { $0[labels] ?? 0 }
    }

    func render(into text: inout String) {
        let series = MetricDescriptor.ordered(self.series.withLock { $0 })
        text += self.descriptor.header(type: "gauge")
        for (labels, value) in series {
            text += self.descriptor.sample(labels, value: PrometheusText.number(value))
        }
    }
}
