import HearthSystem
import Testing

@Suite struct RepeatedLogLimiterTests {
    private let second: UInt64 = 1_000_000_000

    /// The first occurrence of a key is logged; repeats within the interval are left out, and the next one logged
    /// after it carries their number. Other keys are not held back.
    @Test func logsTheFirstAndThenOncePerIntervalWithTheNumberLeftOut() {
        var limiter = RepeatedLogLimiter(interval: .seconds(2))
        #expect(limiter.admit("n1 authenticationFailed", now: 0) == 0)
        #expect(limiter.admit("n1 authenticationFailed", now: self.second / 2) == nil)
        #expect(limiter.admit("n1 authenticationFailed", now: self.second) == nil)
        #expect(limiter.admit("n3 authenticationFailed", now: self.second) == 0)
        #expect(limiter.admit("n1 authenticationFailed", now: 2 * self.second) == 2)
        #expect(limiter.admit("n1 authenticationFailed", now: 3 * self.second) == nil)
        #expect(limiter.admit("n1 authenticationFailed", now: 5 * self.second) == 1)
    }

    /// With every slot taken by a key logged within the interval, a new key is still logged (never silenced), and
    /// once old keys have aged out they make room.
    @Test func aFullLimiterNeverSilencesANewKey() {
        var limiter = RepeatedLogLimiter(interval: .seconds(1), maximumKeys: 2)
        #expect(limiter.admit("a", now: 0) == 0)
        #expect(limiter.admit("b", now: 0) == 0)
        #expect(limiter.admit("c", now: 1) == 0)
        #expect(limiter.admit("c", now: 2) == 0)
        #expect(limiter.admit("d", now: 2 * self.second) == 0)
        #expect(limiter.admit("d", now: 2 * self.second + 1) == nil)
    }
}
