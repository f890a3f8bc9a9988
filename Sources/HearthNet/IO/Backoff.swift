import Glibc

/// How long to wait before the next attempt to reach a peer: exponential growth from `initial` by `multiplier` for
/// each consecutive failure, capped at `maximum`, with up to `jitter` of each delay taken off at random so that
/// nodes which lost a peer together do not all retry in the same instant.
///
/// A pure value: no clock and no hidden randomness. The caller injects the random number generator (seeded in
/// tests, so a run replays exactly), asks for `nextDelay` after each failure and calls `reset()` after a success.
/// Delay number *n* (from 0) lies in `[(1 − jitter) · d, d]` with `d = min(maximum, initial · multiplierⁿ)`.
package struct Backoff: Sendable, Hashable {
    package let initial: Duration
    package let maximum: Duration
    package let multiplier: Double
    /// The largest fraction of a delay that jitter takes off: 0 for none, 1 for "full jitter".
    package let jitter: Double
    /// Consecutive failures since the last success (or since the start).
    package private(set) var failures = 0

    /// - Precondition: `initial > 0`, `maximum >= initial`, `multiplier >= 1`, `0 <= jitter <= 1`.
    package init(
        initial: Duration = .milliseconds(100),
        maximum: Duration = .seconds(10),
        multiplier: Double = 2,
        jitter: Double = 0.2
    ) {
        precondition(initial > .zero, "Backoff.initial must be positive, got \(initial)")
        precondition(maximum >= initial, "Backoff.maximum (\(maximum)) must not be below initial (\(initial))")
        precondition(multiplier >= 1, "Backoff.multiplier must be at least 1, got \(multiplier)")
        precondition((0...1).contains(jitter), "Backoff.jitter must lie in 0...1, got \(jitter)")
        self.initial = initial
        self.maximum = maximum
        self.multiplier = multiplier
        self.jitter = jitter
    }

    /// The delay before the next attempt, counting one more consecutive failure. O(1).
    package mutating func nextDelay(using random: inout some RandomNumberGenerator) -> Duration {
        let initial = Double(self.initial.reactorNanoseconds)
        let maximum = Double(self.maximum.reactorNanoseconds)
        let ceiling = min(maximum, initial * pow(self.multiplier, Double(self.failures)))
        self.failures = min(self.failures + 1, Self.failureCountCap)
        let scale = self.jitter == 0 ? 1 : 1 - self.jitter * Double.random(in: 0..<1, using: &random)
        return .nanoseconds(Int64(min(ceiling * scale, Double(Int64.max / 2))))
    }

    /// Forgets the failures: the next delay is `initial` again (less jitter). Call it after a success.
    package mutating func reset() {
        self.failures = 0
    }

    /// Beyond this many failures every delay is `maximum` anyway; capping the count keeps the arithmetic finite.
    private static let failureCountCap = 1_000
}
