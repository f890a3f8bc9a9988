/// The per-connection soft limit on queued answers (anchor: Redis's `client-output-buffer-limit pubsub 32mb 8mb 60`):
/// a connection may hold more than `bytes` for a burst, but not for longer than `grace`. The hard limit
/// (`outboundBufferLimit`) closes a connection at once.
package struct OutputSoftLimit: Sendable, Hashable {
    /// Queued bytes above which the grace period runs.
    package var bytes: Int
    /// How long, in nanoseconds, a connection may stay above `bytes`.
    package var grace: UInt64

    package init(bytes: Int, grace: UInt64) {
        self.bytes = bytes
        self.grace = grace
    }
}

/// One connection's standing against its `OutputSoftLimit`: a value the writer updates as its queue grows and
/// shrinks, with the time passed in.
struct OutputSoftLimitWatch {
    let limit: OutputSoftLimit
    /// Since when the queue has stayed above the limit; `nil` while at or below it.
    private(set) var aboveSince: UInt64?

    init(limit: OutputSoftLimit) {
        self.limit = limit
    }

    /// Notes the queue's size at `now` (monotonic nanoseconds).
    /// - Returns: true when the queue has been above the limit for longer than the grace period.
    mutating func observe(queuedBytes: Int, now: UInt64) -> Bool {
        guard queuedBytes > self.limit.bytes else {
            self.aboveSince = nil
            return false
        }
        guard let since = self.aboveSince else {
            self.aboveSince = now
            return self.limit.grace == 0
        }
        return now &- since >= self.limit.grace
    }
}
