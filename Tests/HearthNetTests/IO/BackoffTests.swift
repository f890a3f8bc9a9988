import HearthNet
import HearthTestKit
import Testing

@Suite struct BackoffTests {
    private func delays(_ backoff: inout Backoff, _ count: Int, seed: UInt64 = 1) -> [Duration] {
        var random = SeededRandom(seed: seed)
        return (0..<count).map { _ in backoff.nextDelay(using: &random) }
    }

    @Test func withoutJitterDelaysDoubleUpToTheCap() {
        var backoff = Backoff(initial: .milliseconds(100), maximum: .seconds(1), multiplier: 2, jitter: 0)
        let expected: [Duration] = [100, 200, 400, 800, 1000, 1000].map { .milliseconds($0) }
        #expect(self.delays(&backoff, 6) == expected)
        #expect(backoff.failures == 6)
    }

    /// Delay n lies in [(1 − jitter)·d, d] for d = min(maximum, initial·2ⁿ).
    @Test(arguments: [0.2, 0.5, 1.0]) func jitterOnlyShortensEachDelayWithinItsBound(jitter: Double) {
        for seed in UInt64(1)...50 {
            var backoff = Backoff(initial: .milliseconds(100), maximum: .seconds(1), jitter: jitter)
            for (index, delay) in self.delays(&backoff, 8, seed: seed).enumerated() {
                let ceiling = Duration.milliseconds(min(1000, 100 << index))
                #expect(delay <= ceiling)
                #expect(delay >= ceiling * (1 - jitter) - .nanoseconds(1))
            }
        }
    }

    @Test func theSameSeedReplaysTheSameScheduleAndAnotherSeedDoesNot() {
        var first = Backoff()
        var second = Backoff()
        var third = Backoff()
        let replayed = self.delays(&first, 10, seed: 42)
        #expect(self.delays(&second, 10, seed: 42) == replayed)
        #expect(self.delays(&third, 10, seed: 43) != replayed)
    }

    @Test func resetStartsTheScheduleOver() {
        var backoff = Backoff(initial: .milliseconds(50), maximum: .seconds(5), multiplier: 3, jitter: 0)
        _ = self.delays(&backoff, 4)
        backoff.reset()
        #expect(backoff.failures == 0)
        #expect(self.delays(&backoff, 2) == [.milliseconds(50), .milliseconds(150)])
    }

    /// Thousands of failures neither overflow nor exceed the cap.
    @Test func manyFailuresStayAtTheCap() {
        var backoff = Backoff(initial: .milliseconds(1), maximum: .seconds(30), jitter: 0)
        #expect(self.delays(&backoff, 5000).suffix(3) == [.seconds(30), .seconds(30), .seconds(30)])
    }
}
