/// What a run measured and found: throughput, latency percentiles, transaction attempts, errors, the checks'
/// violations, and the operations per second over the run.
public struct StarReport: Sendable {
    /// One second of the run, as the progress line showed it.
    public struct Second: Sendable, Equatable {
        public var second: Int
        public var operations: Int
        public var p50Milliseconds: Double
        public var p99Milliseconds: Double

        public init(second: Int, operations: Int, p50Milliseconds: Double, p99Milliseconds: Double) {
            self.second = second
            self.operations = operations
            self.p50Milliseconds = p50Milliseconds
            self.p99Milliseconds = p99Milliseconds
        }
    }

    public var options: StarsOptions
    public var run: String
    /// How long operations were started for.
    public var seconds: Double
    public var tally: StarTally
    public var violations: [String]
    public var series: [Second] = []
    /// Connections that listened to the top posts, and the pushes they received.
    public var readers = 0
    public var readerUpdates = 0
    /// What `--chaos kill-leader` did, when asked.
    public var chaos: ChaosOutcome?
    /// What each node's `/.metrics` showed of the run.
    public var server: [ServerFigures] = []
    /// What the run left in the database, or removed (`--cleanup`).
    public var leftovers: RunLeftovers?
    /// When, where and with what the run ran, for the HTML report's header.
    public var context: RunContext?
    /// The operations slower than `--slow-log`, in the order they ended.
    var slow: [SlowOperations.Entry] = []
    /// The slow operations past the listed ones (`SlowOperations.maximumEntries`), counted only.
    var slowOmitted = 0

    public init(options: StarsOptions, run: String, seconds: Double, tally: StarTally, violations: [String]) {
        self.options = options
        self.run = run
        self.seconds = seconds
        self.tally = tally
        self.violations = violations
    }

    public var opsPerSecond: Double { self.seconds > 0 ? Double(self.tally.operations) / self.seconds : 0 }

    public var invariantsOk: Bool { self.violations.isEmpty }

    /// The percentiles reported, with their JSON names.
    static let percentiles: [(name: String, fraction: Double)] = [
        ("p50", 0.5), ("p90", 0.9), ("p99", 0.99), ("p999", 0.999),
    ]
}
