import Glibc

/// Nanoseconds since an arbitrary point, from `CLOCK_MONOTONIC`: the reactor's time base for deadlines.
enum MonotonicClock {
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// `seconds` as nanoseconds, clamped to a sane range.
    static func nanoseconds(_ seconds: Double) -> UInt64 {
        guard seconds > 0 else { return 0 }
        return UInt64(min(seconds, 1e9) * 1e9)
    }
}
