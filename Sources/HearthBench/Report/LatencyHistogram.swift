import Foundation

/// Latencies in buckets 1 % wide (from 1 µs to over an hour), so a long run keeps a fixed few kilobytes and any
/// percentile is read to within 1 %; the largest value is kept exactly. Histograms of several clients add up.
public struct LatencyHistogram: Sendable, Equatable {
    private static let growth = 1.01
    private static let bucketCount = 2_400
    private var buckets = [Int](repeating: 0, count: LatencyHistogram.bucketCount)
    public private(set) var count = 0
    public private(set) var maximumMicroseconds = 0.0

    public init() {}

    public mutating func record(microseconds: Double) {
        let value = max(1, microseconds)
        let index = min(Self.bucketCount - 1, Int(log(value) / log(Self.growth)))
        self.buckets[index] += 1
        self.count += 1
        self.maximumMicroseconds = max(self.maximumMicroseconds, microseconds)
    }

    public mutating func record(_ duration: Duration) {
        self.record(microseconds: duration.inSeconds * 1e6)
    }

    public mutating func merge(_ other: LatencyHistogram) {
        for index in self.buckets.indices { self.buckets[index] += other.buckets[index] }
        self.count += other.count
        self.maximumMicroseconds = max(self.maximumMicroseconds, other.maximumMicroseconds)
    }

    /// The latency at or below which `fraction` (0…1) of the values fall, in milliseconds; 0 when empty.
    public func milliseconds(at fraction: Double) -> Double {
        guard self.count > 0 else { return 0 }
        let rank = max(1, Int((fraction * Double(self.count)).rounded(.up)))
        var seen = 0
        for (index, count) in self.buckets.enumerated() where count > 0 {
            seen += count
            if seen >= rank { return min(pow(Self.growth, Double(index + 1)), self.maximumMicroseconds) / 1000 }
        }
        return self.maximumMicroseconds / 1000
    }

    public var maximumMilliseconds: Double { self.maximumMicroseconds / 1000 }
}
