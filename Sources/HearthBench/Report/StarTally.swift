/// One client's counts, and the whole run's once added up: operations finished, their latencies, transaction
/// attempts, retries, give-ups and errors by kind.
public struct StarTally: Sendable, Equatable {
    /// Operations that finished with an acknowledgement while the run was on.
    public var operations = 0
    /// Every finished operation's latency, from its first send to its last answer (all a transaction's attempts).
    public var latency = LatencyHistogram()
    /// The latencies since the progress line last took them.
    public var window = LatencyHistogram()
    /// Every finished operation's latency by the kind of operation (`increment`, `transaction`, `rest`).
    public var byOperation: [String: LatencyHistogram] = [:]
    /// Committed transactions by the attempts they took.
    public var attempts: [Int: Int] = [:]
    /// Transaction attempts answered with stale data and run again.
    public var retries = 0
    /// Transactions that reached the attempt limit without committing.
    public var gaveUp = 0
    /// Refusals and failures by their status (`permission_denied`, `disconnected`, …).
    public var errors: [String: Int] = [:]
    /// Connects that failed (the node down or unreachable), counted apart from the operations' errors: a client
    /// backs off between them, so they say how long a node was away rather than how much work failed.
    public var connectionFailures = 0

    public init() {}

    public var errorCount: Int { self.errors.values.reduce(0, +) }

    /// Records an operation that finished after `latency`, of `kind`.
    public mutating func record(_ latency: Duration, of kind: String) {
        self.latency.record(latency)
        self.window.record(latency)
        self.byOperation[kind, default: LatencyHistogram()].record(latency)
    }

    public mutating func merge(_ other: StarTally) {
        self.operations += other.operations
        self.latency.merge(other.latency)
        self.window.merge(other.window)
        self.byOperation.merge(other.byOperation) { mine, theirs in
            var merged = mine
            merged.merge(theirs)
            return merged
        }
        self.attempts.merge(other.attempts, uniquingKeysWith: +)
        self.retries += other.retries
        self.gaveUp += other.gaveUp
        self.errors.merge(other.errors, uniquingKeysWith: +)
        self.connectionFailures += other.connectionFailures
    }
}
