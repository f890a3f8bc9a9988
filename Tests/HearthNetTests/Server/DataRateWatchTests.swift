import Testing

@testable import HearthNet

@Suite struct DataRateWatchTests {
    private let second: UInt64 = 1_000_000_000
    private let rate = MinimumDataRate(bytesPerSecond: 240, graceSeconds: 5)

    /// Nothing is judged during the grace period, however little arrives.
    @Test func judgesNothingDuringTheGrace() {
        let watch = DataRateWatch(start: 100, rate: self.rate)
        #expect(watch.verdict(now: 100 + 5 * self.second) == .keepingUp)
    }

    /// After the grace the average since the start must keep up: 240 bytes/s over 6 s is 1,440 bytes.
    @Test func holdsTheAverageSinceTheStartToTheRate() {
        var watch = DataRateWatch(start: 0, rate: self.rate)
        watch.add(1_439)
        #expect(watch.verdict(now: 6 * self.second) == .tooSlow)
        watch.add(1)
        #expect(watch.verdict(now: 6 * self.second) == .keepingUp)
        #expect(watch.verdict(now: 7 * self.second) == .tooSlow)
    }

    /// A byte a second (the trickle every byte used to reset an idle timer for) fails at the first check after
    /// the grace.
    @Test func aTrickleFailsRightAfterTheGrace() {
        var watch = DataRateWatch(start: 0, rate: self.rate)
        var now: UInt64 = 0
        var verdict = DataRateWatch.Verdict.keepingUp
        while verdict == .keepingUp, now < 60 * self.second {
            now += self.rate.checkInterval
            watch.add(1)
            verdict = watch.verdict(now: now)
        }
        #expect(verdict == .tooSlow)
        #expect(now == 6 * self.second)
    }

    /// The deadline bounds the whole body, however fast it arrives; a rate of 0 judges nothing else.
    @Test func theDeadlineBoundsEvenAFastBody() {
        var watch = DataRateWatch(
            start: 0, rate: MinimumDataRate(bytesPerSecond: 0, graceSeconds: 5), deadline: 30 * self.second)
        watch.add(1 << 30)
        #expect(watch.verdict(now: 30 * self.second) == .keepingUp)
        #expect(watch.verdict(now: 30 * self.second + 1) == .pastDeadline)
        #expect(
            DataRateWatch(start: 0, rate: MinimumDataRate(bytesPerSecond: 0, graceSeconds: 0)).verdict(
                now: 3600 * self.second) == .keepingUp)
    }

    /// Checks come once a second, sooner when the grace or the deadline is shorter, never more often than 100 Hz.
    @Test func checksOftenEnoughForTheGraceAndTheDeadline() {
        #expect(self.rate.checkInterval == self.second)
        #expect(MinimumDataRate(bytesPerSecond: 1, graceSeconds: 0.2).checkInterval == self.second / 5)
        #expect(MinimumDataRate(bytesPerSecond: 1, graceSeconds: 0).checkInterval == self.second / 100)
        let watch = DataRateWatch(start: 0, rate: self.rate, deadline: self.second / 4)
        #expect(watch.checkInterval == self.second / 4)
    }
}
