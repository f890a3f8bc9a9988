import Glibc

/// Nanoseconds since an arbitrary fixed point, from `CLOCK_MONOTONIC`: the one time base for deadlines in every
/// layer (the reactor's timers, the WAL writer's batch window, `WakeSignal`'s timed waits).
///
/// It never jumps when the wall clock is set. Readings are plain `UInt64`s, so deadlines can live in value-type
/// state and cross threads without a clock object; only differences between readings mean anything.
public enum MonotonicClock {
    /// The current reading, in nanoseconds.
    public static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// `seconds` as a duration in nanoseconds: 0 for zero, negative or NaN, at most 10⁹ seconds (about 31 years),
    /// so adding it to a reading never overflows.
    public static func nanoseconds(_ seconds: Double) -> UInt64 {
        guard seconds > 0 else { return 0 }
        return UInt64(min(seconds, 1e9) * 1e9)
    }
}
