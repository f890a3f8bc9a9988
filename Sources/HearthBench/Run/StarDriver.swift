/// One client of a run, whatever it speaks: started, stopped, asked whether an operation is still out, and
/// finished with what it saw.
protocol StarDriver: Sendable {
    func start()
    /// Starts no more operations; the one in flight still finishes.
    func stop()
    /// Whether an operation is still waiting for its answer.
    var isBusy: Bool { get }
    /// Operations finished while the run was on, so far.
    var operationsSoFar: Int { get }
    /// The latencies since the last call, and the totals so far.
    func takeWindow() -> StarTally
    /// Ends the client's part: an operation still unanswered counts as uncertain (or unchanged, when it wrote
    /// nothing yet).
    func finish() -> (ledger: StarLedger, tally: StarTally)
    func close()
}
