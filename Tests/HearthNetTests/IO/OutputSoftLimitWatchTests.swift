import Testing

@testable import HearthNet

@Suite struct OutputSoftLimitWatchTests {
    private static let second: UInt64 = 1_000_000_000

    /// What the watch says for each (queued bytes, time) in turn.
    private static func verdicts(_ limit: OutputSoftLimit, _ observations: [(bytes: Int, now: UInt64)]) -> [Bool] {
        var watch = OutputSoftLimitWatch(limit: limit)
        return observations.map { watch.observe(queuedBytes: $0.bytes, now: $0.now) }
    }

    /// Above the limit for the whole grace period: evict. A dip to the limit or below starts the clock again.
    @Test func firesOnlyAfterAGraceSpentAboveTheLimit() {
        let verdicts = Self.verdicts(
            OutputSoftLimit(bytes: 100, grace: 10 * Self.second),
            [
                (100, 0), (101, 1 * Self.second), (5_000, 10 * Self.second), (50, 10 * Self.second + 1),
                (200, 12 * Self.second), (200, 21 * Self.second), (200, 22 * Self.second),
            ])
        #expect(verdicts == [false, false, false, false, false, false, true])
    }

    /// With no grace, the first observation above the limit fires.
    @Test func noGraceFiresAtOnce() {
        let verdicts = Self.verdicts(OutputSoftLimit(bytes: 100, grace: 0), [(10, 5), (101, 6)])
        #expect(verdicts == [false, true])
    }
}
