import Synchronization

/// A Prometheus counter family: monotonically increasing totals, one per combination of label values (for
/// example requests by method and status).
public final class CounterFamily: MetricFamily {
    private let descriptor: MetricDescriptor
    private let series = Lock<[[String]: CounterSeries]>([:])

    init(_ descriptor: MetricDescriptor) {
        self.descriptor = descriptor
    }

    public var name: String { self.descriptor.name }

    /// The series with `labels` (values in the order the family's label names were declared), made on first use.
    /// A hot path resolves its series once and increments the handle: one atomic add, no labels built or hashed
    /// per event. A series never incremented is not rendered, as if it did not exist.
    public func series(_ labels: [String] = []) -> CounterSeries {
        self.descriptor.check(labels)
        return self.series.withLock { series in
            if let existing = series[labels] { return existing }
            let made = CounterSeries()
            series[labels] = made
            return made
        }
    }

    /// Adds `amount` to the series with `labels` (values in the order the family's label names were declared).
    public func increment(_ labels: [String] = [], by amount: UInt64 = 1) {
        self.series(labels).increment(by: amount)
    }

    /// The current total of the series with `labels`; 0 if it was never incremented.
    public func value(_ labels: [String] = []) -> UInt64 {
        self.series.withLock { $0[labels] }?.value ?? 0
    }

    func render(into text: inout String) {
        let series = MetricDescriptor.ordered(
            self.series.withLock { $0 }.compactMapValues { series in
                let value = series.value
                return value == 0 ? nil : value
            })
        text += self.descriptor.header(type: "counter")
        for (labels, count) in series {
            text += self.descriptor.sample(labels, value: String(count))
        }
    }
}

/// One series of a `CounterFamily`, resolved once and then incremented from any thread with one atomic add.
public final class CounterSeries: Sendable {
    private let total = Atomic<UInt64>(0)

    /// Adds `amount`, wrapping past the largest value as Prometheus counters do on overflow.
    public func increment(by amount: UInt64 = 1) {
        self.total.wrappingAdd(amount, ordering: .relaxed)
    }

    /// The total so far.
    public var value: UInt64 { self.total.load(ordering: .relaxed) }
}
