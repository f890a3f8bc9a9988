/// The slowest a client may send a request body (or a WebSocket message), as Kestrel's `MinRequestBodyDataRate`:
/// after a grace period, the bytes received must keep up with `bytesPerSecond` averaged since the body began. A
/// client trickling a byte a second would otherwise hold a connection, and the memory behind it, for as long as
/// it likes, since every byte restarts an idle timer.
public struct MinimumDataRate: Sendable, Equatable {
    /// Kestrel's default: 240 bytes a second after a 5 s grace.
    public static let standard = MinimumDataRate(bytesPerSecond: 240, graceSeconds: 5)

    public var bytesPerSecond: Int
    public var graceSeconds: Double

    public init(bytesPerSecond: Int, graceSeconds: Double) {
        self.bytesPerSecond = bytesPerSecond
        self.graceSeconds = graceSeconds
    }

    /// How often a watch is checked: once a second, or within the grace when that is shorter.
    var checkInterval: UInt64 {
        min(1_000_000_000, max(10_000_000, UInt64(self.graceSeconds * 1e9)))
    }
}

/// One body's progress against a `MinimumDataRate` and an optional total deadline: a pure value the connection
/// feeds with byte counts and asks at its timer ticks, with times from `MonotonicClock` passed in.
struct DataRateWatch: Equatable {
    /// What a check found.
    enum Verdict: Equatable {
        case keepingUp
        /// Slower than the minimum rate after the grace period.
        case tooSlow
        /// Past the total deadline, however fast.
        case pastDeadline
    }

    let start: UInt64
    let rate: MinimumDataRate
    /// Nanoseconds from `start` the whole body must arrive within; `nil` for no bound.
    let deadline: UInt64?
    private(set) var received = 0

    init(start: UInt64, rate: MinimumDataRate, deadline: UInt64? = nil) {
        self.start = start
        self.rate = rate
        self.deadline = deadline
    }

    /// How often to check: the rate's interval, or sooner when the deadline comes first.
    var checkInterval: UInt64 {
        min(self.rate.checkInterval, self.deadline.map { max($0, 10_000_000) } ?? .max)
    }

    mutating func add(_ count: Int) {
        self.received &+= count
    }

    func verdict(now: UInt64) -> Verdict {
        let elapsed = now &- self.start
        if let deadline, elapsed > deadline { return .pastDeadline }
        let seconds = Double(elapsed) / 1e9
        guard seconds > self.rate.graceSeconds else { return .keepingUp }
        return Double(self.received) < Double(self.rate.bytesPerSecond) * seconds ? .tooSlow : .keepingUp
    }
}
