/// What an `IntentResolver` did so far, for `/.metrics`: how many transactions it finished and why, how long their
/// parts had been prepared here when it did, and how often it could not act at once.
struct IntentResolverStatistics: Sendable, Equatable {
    /// Transactions finished because no coordinator claimed them any more.
    var orphansResolved: UInt64 = 0
    /// Transactions finished because a part stayed prepared for `IntentResolver.resolveAfter`.
    var timedOutResolved: UInt64 = 0
    /// Resolutions that failed (the anchor or a participant could not be reached); the next pass tries again.
    var failures: UInt64 = 0
    /// Claims questions some member did not answer in time (the resolver then waits out `resolveAfter`).
    var incompleteClaims: UInt64 = 0
    /// The sum of how long each resolved transaction's part had been prepared here, in seconds.
    var preparedSeconds: Double = 0
    /// The longest a resolved transaction's part had been prepared here, in seconds.
    var longestPreparedSeconds: Double = 0

    /// Counts one transaction resolved after its part was prepared here for `age`.
    mutating func resolved(orphan: Bool, preparedFor age: Duration) {
        if orphan { self.orphansResolved += 1 } else { self.timedOutResolved += 1 }
        let seconds = Double(age.components.seconds) + Double(age.components.attoseconds) / 1e18
        self.preparedSeconds += seconds
        self.longestPreparedSeconds = max(self.longestPreparedSeconds, seconds)
    }
}
