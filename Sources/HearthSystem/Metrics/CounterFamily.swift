/// A Prometheus counter family: monotonically increasing totals, one per combination of label values (for
/// example requests by method and status).
public final class CounterFamily: MetricFamily {
    private let descriptor: MetricDescriptor
    private let series = Lock<[[String]: UInt64]>([:])

    init(_ descriptor: MetricDescriptor) {
        self.descriptor = descriptor
    }

    public var name: String { self.descriptor.name }

    /// Adds `amount` to the series with `labels` (values in the order the family's label names were declared).
    public func increment(_ labels: [String] = [], by amount: UInt64 = 1) {
        self.descriptor.check(labels)
        self.series.withLock { $0[labels, default: 0] &+= amount }
    }

    /// The current total of the series with `labels`; 0 if it was never incremented.
    public func value(_ labels: [String] = []) -> UInt64 {
        self.series.withLock { $0[labels] ?? 0 }
    }

    func render(into text: inout String) {
        let series = MetricDescriptor.ordered(self.series.withLock { $0 })
        text += self.descriptor.header(type: "counter")
        for (labels, count) in series {
            text += self.descriptor.sample(labels, value: String(count))
        }
    }
}
