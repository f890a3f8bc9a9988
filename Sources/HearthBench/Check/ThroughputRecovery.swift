/// How soon throughput came back after a fault: from samples of the operations finished so far, the time from the
/// fault until the rate over half a second is back to half the rate of the two seconds before it.
public enum ThroughputRecovery {
    /// One reading: seconds into the run, and the operations finished by then.
    public struct Sample: Sendable, Equatable {
        public var seconds: Double
        public var operations: Int

        public init(seconds: Double, operations: Int) {
            self.seconds = seconds
            self.operations = operations
        }
    }

    /// Seconds from `fault` until throughput recovered; nil when it never did within the samples (or there was no
    /// throughput before the fault to compare with).
    public static func seconds(after fault: Double, samples: [Sample]) -> Double? {
        guard let before = self.rate(samples, from: fault - 2, to: fault), before > 0 else { return nil }
        for sample in samples where sample.seconds >= fault {
            guard let rate = self.rate(samples, from: sample.seconds, to: sample.seconds + 0.5) else { return nil }
            if rate >= before / 2 { return sample.seconds - fault }
        }
        return nil
    }

    /// Operations per second between the samples nearest `from` and `to`; nil when the samples do not reach `to`.
    static func rate(_ samples: [Sample], from: Double, to: Double) -> Double? {
        guard let start = samples.last(where: { $0.seconds <= from }) ?? samples.first,
            let end = samples.first(where: { $0.seconds >= to }), end.seconds > start.seconds
        else { return nil }
        return Double(end.operations - start.operations) / (end.seconds - start.seconds)
    }
}
