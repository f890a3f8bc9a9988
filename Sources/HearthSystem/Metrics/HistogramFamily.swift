/// A Prometheus histogram family: how many observations fell at or below each bucket bound, plus their count and
/// sum, one histogram per combination of label values (for example request latency by method).
public final class HistogramFamily: MetricFamily {
    private let descriptor: MetricDescriptor
    /// Upper bounds, strictly increasing; the implicit last bucket is `+Inf`.
    private let buckets: [Double]
    private let series = Lock<[[String]: HistogramSeries]>([:])

    init(_ descriptor: MetricDescriptor, buckets: [Double]) {
        let name = descriptor.name
        precondition(!descriptor.labelNames.contains("le"), "histogram '\(name)' may not declare the label 'le'")
        precondition(
            buckets.allSatisfy(\.isFinite) && zip(buckets, buckets.dropFirst()).allSatisfy { $0 < $1 },
            "histogram '\(name)' needs finite, strictly increasing bucket bounds, not \(buckets)"
        )
        self.descriptor = descriptor
        self.buckets = buckets
    }

    public var name: String { self.descriptor.name }

    /// The histogram with `labels`, made on first use: a hot path resolves it once and observes through the handle,
    /// with no labels built or hashed, and no lock but the series' own, per observation. A histogram that never
    /// observed anything is not rendered, as if it did not exist.
    public func series(_ labels: [String] = []) -> HistogramSeries {
        self.descriptor.check(labels)
        return self.series.withLock { series in
            if let existing = series[labels] { return existing }
            let made = HistogramSeries(buckets: self.buckets)
            series[labels] = made
            return made
        }
    }

    /// Records one observation in the histogram with `labels`; NaN is ignored.
    public func observe(_ value: Double, _ labels: [String] = []) {
        self.series(labels).observe(value)
    }

    /// How many observations the histogram with `labels` holds.
    public func count(_ labels: [String] = []) -> UInt64 {
        self.series.withLock { $0[labels] }?.snapshot.count ?? 0
    }

    func render(into text: inout String) {
        let series = MetricDescriptor.ordered(
            self.series.withLock { $0 }.compactMapValues { series in
                let snapshot = series.snapshot
                return snapshot.count == 0 ? nil : snapshot
            })
        let descriptor = self.descriptor
        text += descriptor.header(type: "histogram")
        for (labels, histogram) in series {
            var cumulative: UInt64 = 0
            for (bound, count) in zip(self.buckets, histogram.bucketCounts) {
                cumulative += count
                let le = PrometheusText.number(bound)
                text += descriptor.sample(labels, suffix: "_bucket", le: le, value: String(cumulative))
            }
            text += descriptor.sample(labels, suffix: "_bucket", le: "+Inf", value: String(histogram.count))
            text += descriptor.sample(labels, suffix: "_sum", value: PrometheusText.number(histogram.sum))
            text += descriptor.sample(labels, suffix: "_count", value: String(histogram.count))
        }
    }
}

/// One histogram of a `HistogramFamily`, resolved once and then observed into from any thread.
public final class HistogramSeries: Sendable {
    /// The observations so far.
    struct Snapshot {
        /// Observations per bucket (not cumulative); rendering accumulates them.
        var bucketCounts: [UInt64]
        var count: UInt64 = 0
        var sum: Double = 0
    }

    /// The family's upper bounds.
    private let buckets: [Double]
    private let state: Lock<Snapshot>

    init(buckets: [Double]) {
        self.buckets = buckets
        self.state = Lock(Snapshot(bucketCounts: [UInt64](repeating: 0, count: buckets.count)))
    }

    /// Records one observation; NaN is ignored.
    public func observe(_ value: Double) {
        guard !value.isNaN else { return }
        let bucket = self.buckets.firstIndex { value <= $0 }
        self.state.withLock { state in
            if let bucket { state.bucketCounts[bucket] += 1 }
            state.count += 1
            state.sum += value
        }
    }

    var snapshot: Snapshot { self.state.withLock { $0 } }
}
