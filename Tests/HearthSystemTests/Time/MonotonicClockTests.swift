import Glibc
import HearthSystem
import Testing

@Suite struct MonotonicClockTests {
    @Test func neverGoesBackwards() {
        var previous = MonotonicClock.now()
        for _ in 0..<100_000 {
            let reading = MonotonicClock.now()
            #expect(reading >= previous)
            previous = reading
        }
    }

    @Test func advancesWithRealTime() {
        let start = MonotonicClock.now()
        usleep(20_000)
        let elapsed = MonotonicClock.now() - start
        #expect(elapsed >= 20_000_000)
        #expect(elapsed < 5_000_000_000)
    }

    /// Durations are clamped so that `now() + duration` can never overflow.
    @Test func convertsSecondsToNanosecondsWithinBounds() {
        #expect(MonotonicClock.nanoseconds(1.5) == 1_500_000_000)
        #expect(MonotonicClock.nanoseconds(0.000_001) == 1_000)
        #expect(MonotonicClock.nanoseconds(0) == 0)
        #expect(MonotonicClock.nanoseconds(-3) == 0)
        #expect(MonotonicClock.nanoseconds(.nan) == 0)
        #expect(MonotonicClock.nanoseconds(.infinity) == 1_000_000_000 * 1_000_000_000)
    }
}
