/// A Prometheus histogram family: how many observations fell at or below each bucket bound, plus their count and
/// sum, one histogram per combination of label values (for example request latency by method).
public final class HistogramFamily: MetricFamily {
    private let descriptor: MetricDescriptor
    /// Upper bounds, strictly increasing; the implicit last bucket is `+Inf`.
    private let buckets: [Double]
    private let series = Lock<[[String]: Series]>([:])

    private struct Series {
        /// Observations per bucket (not cumulative); rendering accumulates them.
        var bucketCounts: [UInt64]
        var count: UInt64 = 0
        var sum: Double = 0

        mutating func record(_ value: Double, bucket: Int?) {
            if let bucket { self.bucketCounts[bucket] += 1 }
            self.count += 1
            self.sum += value
        }
    }

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

    /// Records one observation in the histogram with `labels`; NaN is ignored.
    public func observe(_ value: Double, _ labels: [String] = []) {
        self.descriptor.check(labels)
        guard !value.isNaN else { return }
        let bucket = self.buckets.firstIndex { value <= $0 }
        self.series.withLock { series in
            series[labels, default: Series(bucketCounts: [UInt64](repeating: 0, count: self.buckets.count))]
                .record(value, bucket: bucket)
        }
    }

    /// How many observations the histogram with `labels` holds.
    public func count(_ labels: [String] = []) -> UInt64 {
        self.series.withLock { $0[labels]?.count ?? 0 }
    }

    func render(into text: inout String) {
        let series = MetricDescriptor.ordered(self.series.withLock { $0 })
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
