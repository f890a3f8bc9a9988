import HearthCore
import HearthNet
import HearthSystem

/// One REST client of a run (`--mode rest`): the docs' star toggle as Firebase's REST transaction, on a thread of its
/// own with one keep-alive connection. It reads the post with its ETag (`X-Firebase-ETag: true`), puts the toggled
/// post with `if-match`, and on `412` tries again with the value and ETag the answer carried, up to the SDKs' 25
/// attempts. REST names no writes, so a put whose answer is lost leaves its star uncertain.
final class RESTStarClient: StarDriver {
    let index: Int
    private let workload: StarWorkload
    private let address: SocketAddress
    private let namespace: String
    private let deadline: ContinuousClock.Instant
    /// Where operations slower than `--slow-log` are noted, when asked.
    private let slow: SlowOperations?
    private let state: Lock<State>

    private struct State {
        var isRunning = true
        /// Set by `finish()`: whatever the thread learns later is not recorded.
        var isFinished = false
        var ledger = StarLedger()
        var tally = StarTally()
        /// The toggle out, and whether its put may have been sent.
        var current: (pair: StarLedger.Pair, starring: Bool, wrote: Bool)?
    }

    /// - Parameter deadline: no request may run past it (the run's end and its drain).
    init(
        index: Int, workload: StarWorkload, address: SocketAddress, namespace: String,
        deadline: ContinuousClock.Instant,
        slow: SlowOperations? = nil
    ) {
        self.slow = slow
        self.index = index
        self.workload = workload
        self.address = address
        self.namespace = namespace
        self.deadline = deadline
        self.state = Lock(State())
    }

    func start() {
        do {
            try DedicatedThread.start(name: "rest-star-\(self.index)") { self.run() }.detach()
        } catch {
            self.state.withLock { $0.tally.errors["thread", default: 0] += 1 }
        }
    }

    func stop() { self.state.withLock { $0.isRunning = false } }

    var isBusy: Bool { self.state.withLock { $0.current != nil } }

    var operationsSoFar: Int { self.state.withLock { $0.tally.operations } }

    func takeWindow() -> StarTally {
        self.state.withLock { state in
            let tally = state.tally
            state.tally.window = LatencyHistogram()
            return tally
        }
    }

    func finish() -> (ledger: StarLedger, tally: StarTally) {
        self.state.withLock { state in
            if let current = state.current {
                state.ledger.record(current.pair, starring: current.starring, current.wrote ? .uncertain : .unchanged)
                state.current = nil
            }
            state.isFinished = true
            state.isRunning = false
            return (state.ledger, state.tally)
        }
    }

    func close() { self.stop() }

    private func run() {
        let connection = RESTConnection(address: self.address, deadline: self.deadline)
        defer { connection.close() }
        var random = BufferedSystemRandom()
        let users = self.workload.users(ofClient: self.index)
        while true {
            let next = self.state.withLock { state -> (pair: StarLedger.Pair, starring: Bool)? in
                guard state.isRunning,
                    let next = self.workload.pick(users: users, ledger: state.ledger, using: &random)
                else { return nil }
                state.current = (next.pair, next.starring, false)
                return next
            }
            guard let next else { return }
            let started = ContinuousClock.now
            let (outcome, starring, attempts) = self.toggle(next.pair, starring: next.starring, on: connection)
            let took = ContinuousClock.now - started
            if outcome == .applied {
                self.slow?.note("rest", client: self.index, node: "\(self.address)", took: took, attempts: attempts)
            }
            self.state.withLock { state in
                guard !state.isFinished else { return }
                state.ledger.record(next.pair, starring: starring, outcome)
                state.current = nil
                guard outcome == .applied else { return }
                if state.isRunning { state.tally.operations += 1 }
                state.tally.record(took, of: "rest")
                state.tally.attempts[attempts, default: 0] += 1
            }
        }
    }

    /// One REST transaction; returns how it ended, which way it toggled, and the attempts it took.
    private func toggle(_ pair: StarLedger.Pair, starring: Bool, on connection: RESTConnection)
        -> (StarLedger.Outcome, Bool, Int)
    {
        let target = "/\(self.workload.postPath(pair.post)).json?ns=\(self.namespace)"
        guard let read = self.send(connection, "GET", target, [("X-Firebase-ETag", "true")]), read.status == 200 else {
            return (.unchanged, starring, 1)
        }
        var (etag, current) = (read.headers["ETag"] ?? "", try? JSONReader.parseValue(read.body))
        for attempt in 1...StarClient.attemptLimit {
            guard let value = current,
                let (toggled, starred) = StarToggle.toggled(value, uid: self.workload.userID(pair.user))
            else {
                self.count("post_missing")
                return (.unchanged, starring, attempt)
            }
            self.state.withLock { $0.current?.wrote = true }
            guard let answer = self.send(connection, "PUT", target, [("if-match", etag)], toggled.jsonBytes()) else {
                return (.uncertain, starred, attempt)
            }
            switch answer.status {
            case 200:
                return (.applied, starred, attempt)
            case 412 where attempt < StarClient.attemptLimit:
                self.state.withLock { $0.tally.retries += 1 }
                etag = answer.headers["ETag"] ?? ""
                current = try? JSONReader.parseValue(answer.body)
            case 412:
                self.state.withLock { $0.tally.gaveUp += 1 }
            default:
                // A 5xx (the commit was not seen in time, say) does not say whether the put took effect.
                self.count("http_\(answer.status)")
                return (answer.status >= 500 ? .uncertain : .unchanged, starred, attempt)
            }
        }
        return (.unchanged, starring, StarClient.attemptLimit)
    }

    /// The response, or nil when there was none: a node that could not be reached counts as a connection failure,
    /// an exchange that broke as an error (`connection`); a refused read is counted as an error too.
    private func send(
        _ connection: RESTConnection, _ method: String, _ target: String, _ headers: [(String, String)],
        _ body: [UInt8] = []
    ) -> HTTPResponse? {
        do throws(RESTConnection.Failure) {
            let response = try connection.request(method, target, headers: headers, body: body)
            if method == "GET", response.status != 200 { self.count("http_\(response.status)") }
            return response
        } catch {
            switch error {
            case .connecting: self.state.withLock { $0.tally.connectionFailures += 1 }
            case .exchanging: self.count("connection")
            }
            return nil
        }
    }

    private func count(_ kind: String) {
        self.state.withLock { $0.tally.errors[kind, default: 0] += 1 }
    }
}
