/// One client's counts, and the whole run's once added up: operations finished, their latencies, transaction
/// attempts, retries, give-ups and errors by kind.
public struct StarTally: Sendable, Equatable {
    /// Operations that finished with an acknowledgement while the run was on.
    public var operations = 0
    /// Every finished operation's latency, from its first send to its last answer (all a transaction's attempts).
    public var latency = LatencyHistogram()
    /// The latencies since the progress line last took them.
    public var window = LatencyHistogram()
    /// Committed transactions by the attempts they took.
    public var attempts: [Int: Int] = [:]
    /// Transaction attempts answered with stale data and run again.
    public var retries = 0
    /// Transactions that reached the attempt limit without committing.
    public var gaveUp = 0
    /// Refusals and failures by their status (`permission_denied`, `disconnected`, …).
    public var errors: [String: Int] = [:]

    public init() {}

    public var errorCount: Int { self.errors.values.reduce(0, +) }

    public mutating func merge(_ other: StarTally) {
        self.operations += other.operations
        self.latency.merge(other.latency)
        self.window.merge(other.window)
        self.attempts.merge(other.attempts, uniquingKeysWith: +)
        self.retries += other.retries
        self.gaveUp += other.gaveUp
        self.errors.merge(other.errors, uniquingKeysWith: +)
    }
}
