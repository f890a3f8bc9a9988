/// How long a transaction waits after a stale answer before it runs and is sent again: a random wait up to a
/// window that starts at `initialMilliseconds` and doubles with each stale answer, up to `maximumMilliseconds`
/// ("full jitter").
///
/// Firebase's clients resend at once. With a server that serves contenders fairly (the value that won reaches
/// each loser before its `datastale`), one contender wins per round, so the last of n contenders needs n sends and
/// more than 25 give up with `maxretry`. Spreading the losers' retries over a growing window lets most of them
/// find the location free on their next try.
package struct TransactionBackoff: Sendable, Hashable {
    package var initialMilliseconds: Int64
    package var maximumMilliseconds: Int64

    package init(initialMilliseconds: Int64, maximumMilliseconds: Int64) {
        self.initialMilliseconds = initialMilliseconds
        self.maximumMilliseconds = maximumMilliseconds
    }

    /// The client's: up to 5 ms after the first stale answer, 250 ms at most. Measured with 32 clients starring
    /// one post on one node (`DatabaseAPILoopbackTests`): all commit in about 0.9 s (64 in about 3.2 s); with a
    /// 10 ms to 1 s window it took 12 to 20 s, and resending at once gives up with `maxretry` within 0.9 s.
    package static let standard = TransactionBackoff(initialMilliseconds: 5, maximumMilliseconds: 250)

    /// Resend at once, as Firebase's clients do.
    package static let none = TransactionBackoff(initialMilliseconds: 0, maximumMilliseconds: 0)

    /// The window after `staleAnswers` stale answers in a row (at least 1).
    package func window(afterStaleAnswers staleAnswers: Int) -> Int64 {
        guard self.initialMilliseconds > 0 else { return 0 }
        let doublings = min(max(staleAnswers - 1, 0), 32)
        return min(self.maximumMilliseconds, self.initialMilliseconds << Int64(doublings))
    }

    /// A wait drawn from the window after `staleAnswers` stale answers.
    package func delay(afterStaleAnswers staleAnswers: Int, using random: inout some RandomNumberGenerator) -> Int64 {
        let window = self.window(afterStaleAnswers: staleAnswers)
        return window > 0 ? Int64.random(in: 0...window, using: &random) : 0
    }
}

/// A small seeded generator (SplitMix64) the engine keeps as a value, so its random waits replay in tests.
package struct EngineRandom: RandomNumberGenerator, Sendable, Hashable {
    private var state: UInt64

    package init(seed: UInt64) {
        self.state = seed
    }

    package mutating func next() -> UInt64 {
        self.state &+= 0x9E37_79B9_7F4A_7C15
        var value = self.state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
