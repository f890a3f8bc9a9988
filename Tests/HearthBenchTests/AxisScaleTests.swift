import Testing

@testable import HearthBench

/// The HTML report's chart axes: round 1-2-5 ticks on linear axes, whole decades on logarithmic ones.
@Suite struct AxisScaleTests {
    /// A maximum of 9,435 ops/s is ticked 0, 2,000, … 10,000, not in quarters of the maximum.
    @Test func linearTicksAreRound() {
        let axis = AxisScale.linear(maximum: 9435)
        #expect(axis.ticks == [0, 2000, 4000, 6000, 8000, 10000])
        #expect(axis.ticks.map(axis.label) == ["0", "2,000", "4,000", "6,000", "8,000", "10,000"])
        #expect(axis.fraction(5000) == 0.5 && axis.fraction(20000) == 1 && axis.fraction(-1) == 0)
    }

    /// Steps are 1, 2 or 5 times a power of ten, the one nearest the raw step.
    @Test func stepsAreOneTwoOrFive() {
        let cases: [(Double, Double)] = [(0.03, 0.05), (0.8, 1), (1, 1), (1.2, 1), (2358.8, 2000), (4000, 5000)]
        for (raw, step) in cases { #expect(AxisScale.niceStep(raw) == step, "\(raw)") }
        let small = AxisScale.linear(maximum: 0.9)
        #expect(small.ticks.map(small.label) == ["0.0", "0.2", "0.4", "0.6", "0.8", "1.0"])
        let empty = AxisScale.linear(maximum: 0)
        #expect(empty.ticks.map(empty.label) == ["0.0", "0.2", "0.4", "0.6", "0.8", "1.0"])
    }

    /// Latencies from 0.4 ms to 2,300 ms span the decades 0.1 to 10,000, each a quarter of the height.
    @Test func logarithmicAxesSpanDecades() {
        let axis = AxisScale.logarithmic(values: [0.4, 1.5, 12, 2300, 0])
        #expect(axis.lower == 0.1 && axis.upper == 10000)
        #expect(axis.ticks.map(axis.label) == ["0.1", "1", "10", "100", "1,000", "10,000"])
        #expect(abs(axis.fraction(1) - 0.2) < 1e-9 && abs(axis.fraction(100) - 0.6) < 1e-9)
        #expect(axis.fraction(0) == 0 && axis.fraction(1e9) == 1)
        let flat = AxisScale.logarithmic(values: [5, 5])
        #expect(flat.lower == 1 && flat.upper == 10)
    }

    /// Thousands are separated by commas, negative numbers keep their sign.
    @Test func labelsGroupThousands() {
        #expect(AxisScale.grouped(1_234_567, decimals: 0) == "1,234,567")
        #expect(AxisScale.grouped(-1234.5, decimals: 1) == "-1,234.5")
        #expect(AxisScale.grouped(999, decimals: 0) == "999")
    }
}
