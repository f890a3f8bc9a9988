/// Keeps a line that repeats from flooding the log: the first occurrence of each key is logged, later ones at most
/// once per `interval`, each logged line carrying how many occurrences were left out since the previous one.
///
/// A pure value: the caller passes `MonotonicClock` readings. At most `maximumKeys` keys are remembered; when a new
/// key finds no room, keys not logged within the last `interval` are forgotten first, and if none are, the new key's
/// line is logged without being remembered (so a flood of distinct keys is never silenced, nor grows memory).
public struct RepeatedLogLimiter: Sendable {
    private struct Entry: Sendable {
        /// When this key's line was last logged.
        var loggedAt: UInt64
        /// Occurrences since then that were not logged.
        var omitted: UInt64
    }

    /// The shortest time between two logged lines of one key, in nanoseconds.
    public let interval: UInt64
    /// The most keys remembered at once.
    public let maximumKeys: Int
    private var entries: [String: Entry] = [:]

    public init(interval: Duration, maximumKeys: Int = 256) {
        let (seconds, attoseconds) = interval.components
        self.interval = MonotonicClock.nanoseconds(Double(seconds) + Double(attoseconds) / 1e18)
        self.maximumKeys = max(1, maximumKeys)
    }

    /// One occurrence of `key` at `now`: the number of occurrences left out since its last logged line when this one
    /// should be logged (0 for the first), or `nil` when it should be left out.
    public mutating func admit(_ key: String, now: UInt64) -> UInt64? {
        if var entry = self.entries[key] {
            guard now &- entry.loggedAt >= self.interval else {
                entry.omitted &+= 1
                self.entries[key] = entry
                return nil
            }
            self.entries[key] = Entry(loggedAt: now, omitted: 0)
            return entry.omitted
        }
        if self.entries.count >= self.maximumKeys {
            self.entries = self.entries.filter { now &- $0.value.loggedAt < self.interval }
        }
        if self.entries.count < self.maximumKeys { self.entries[key] = Entry(loggedAt: now, omitted: 0) }
        return 0
    }
}
