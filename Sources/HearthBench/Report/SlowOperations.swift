import HearthSystem

/// `--slow-log LENGTH`: every operation that took longer than `threshold`, with when it ended (seconds into the
/// run), its kind, its client and node, and its attempts, so an operator can set the slow ones against what the
/// cluster did then (a kill, a restart, a leader handover in the nodes' logs). Clients on any thread add to it.
final class SlowOperations: Sendable {
    /// One slow operation.
    struct Entry: Sendable, Equatable {
        /// `increment`, `transaction` or `rest`.
        var kind: String
        var client: Int
        /// The node a REST client talks to; `realtime` for a realtime client, which fails over among the nodes.
        var node: String
        /// Seconds into the run when it ended, and how long it took.
        var endedAt: Double
        var seconds: Double
        var attempts: Int
    }

    /// The most operations listed; past it they are only counted (`omitted`), so a low threshold on a long run
    /// cannot grow the bench's memory and report without bound.
    static let maximumEntries = 10_000

    let threshold: Duration
    private let state = Lock<(started: ContinuousClock.Instant, entries: [Entry], omitted: Int)>((.now, [], 0))

    init(threshold: Duration) {
        self.threshold = threshold
    }

    /// The run's operations start now: `endedAt` counts from here.
    func start() {
        self.state.withLock { $0 = (.now, [], 0) }
    }

    /// Notes an operation of `kind` that ended now after `took`, when that is longer than the threshold.
    func note(_ kind: String, client: Int, node: String, took: Duration, attempts: Int) {
        guard took > self.threshold else { return }
        self.state.withLock { state in
            guard state.entries.count < Self.maximumEntries else {
                state.omitted += 1
                return
            }
            state.entries.append(
                Entry(
                    kind: kind, client: client, node: node, endedAt: (ContinuousClock.now - state.started).inSeconds,
                    seconds: took.inSeconds, attempts: attempts))
        }
    }

    /// The slow operations so far, in the order they ended.
    var entries: [Entry] { self.state.withLock { $0.entries }.sorted { $0.endedAt < $1.endedAt } }

    /// The slow operations past `maximumEntries`, counted but not listed.
    var omitted: Int { self.state.withLock { $0.omitted } }
}
