extension Duration {
    /// The duration in whole nanoseconds, the reactor's time unit; negative durations count as zero and very long
    /// ones are capped near 584 years.
    package var reactorNanoseconds: UInt64 {
        let (seconds, attoseconds) = self.components
        guard seconds >= 0 else { return 0 }
        guard seconds < Int64(UInt64.max / 1_000_000_000) - 1 else { return UInt64.max / 2 }
        return UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
    }
}
