import Glibc

/// Nanoseconds from `CLOCK_MONOTONIC`, the clock `WakeSignal` deadlines use.
enum MonotonicClock {
    static func nanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
