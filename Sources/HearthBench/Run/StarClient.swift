import Dispatch
import Hearth
import HearthCore
import HearthSystem
import HearthWire

/// One app's connection in a run: a realtime-protocol connection (the client library's, so it fails over to the
/// other nodes and sends unanswered writes again under their names) running one star operation at a time, from
/// the answer of one straight to the next, until stopped.
///
/// Events arrive on the connection's queue; the state is behind a lock only because the run reads its tally from
/// another thread.
final class StarClient: StarDriver {
    /// Firebase's SDKs give a transaction 25 attempts.
    static let attemptLimit = 25

    let index: Int
    let workload: StarWorkload
    /// Whether each operation is the docs' transaction (otherwise the fan-out update).
    let usesTransactions: Bool
    /// Where operations slower than `--slow-log` are noted, when asked.
    let slow: SlowOperations?
    private let sink = EventSink<StarClient>()
    private let connection: PersistentConnection
    let state: Lock<State>

    init(
        index: Int, workload: StarWorkload, usesTransactions: Bool, nodes: [StarsOptions.Node], namespace: String,
        slow: SlowOperations? = nil
    ) {
        self.slow = slow
        self.index = index
        self.workload = workload
        self.usesTransactions = usesTransactions
        var random = SystemRandomNumberGenerator()
        self.state = Lock(
            State(client: WriteOrigin.randomClient(using: &random), users: workload.users(ofClient: index)))
        self.connection = .star(index: index, nodes: nodes, namespace: namespace, sink: self.sink) { client, event in
            client.handle(event)
        }
        self.sink.owner = self
    }

    /// Connects; returns once connected, or false after `timeout`.
    func connect(timeout: Duration) async -> Bool {
        self.connection.goOnline()
        return await Waiting.until(timeout: timeout) { self.state.withLock { $0.isConnected } }
    }

    /// Starts the loop of operations.
    func start() {
        let commands = self.state.withLock { state -> [ServerCommand] in
            state.isRunning = true
            return state.isConnected && state.current == nil ? self.next(&state) : []
        }
        self.send(commands)
    }

    /// Starts no more operations; the one in flight still finishes.
    func stop() {
        self.state.withLock { $0.isRunning = false }
    }

    /// Whether an operation is still waiting for its answer.
    var isBusy: Bool { self.state.withLock { $0.current != nil } }

    /// Ends the run for this client: an operation still unanswered counts as uncertain.
    func finish() -> (ledger: StarLedger, tally: StarTally) {
        self.state.withLock { state in
            if let operation = state.current {
                state.ledger.record(
                    operation.pair, starring: operation.starring, operation.phase.wrote ? .uncertain : .unchanged)
                state.current = nil
            }
            return (state.ledger, state.tally)
        }
    }

    var operationsSoFar: Int { self.state.withLock { $0.tally.operations } }

    /// The latencies since the last call, and the totals so far.
    func takeWindow() -> StarTally {
        self.state.withLock { state in
            let tally = state.tally
            state.tally.window = LatencyHistogram()
            return tally
        }
    }

    /// Reads `path` (with `query`, when given) once through this client's connection.
    func read(_ path: Path, query: QuerySpec? = nil) async -> WireResponse {
        await withCheckedContinuation { continuation in
            let token = self.state.withLock { state in
                state.sequence += 1
                state.reads[RequestToken(state.sequence)] = continuation
                return RequestToken(state.sequence)
            }
            self.connection.send(.get(token, path: path, query: query))
        }
    }

    /// Writes `update` at the root once (the run's set-up), waiting for the answer.
    func update(_ update: [JSONKey: JSONValue]) async -> WireResponse {
        await withCheckedContinuation { continuation in
            let id = self.state.withLock { state in
                state.sequence += 1
                state.writes[WriteID(state.sequence)] = continuation
                return WriteID(state.sequence)
            }
            self.connection.send(.write(id, .merge(path: "/", data: update)))
        }
    }

    func close() {
        self.connection.close()
        self.sink.owner = nil
    }

    private func send(_ commands: [ServerCommand]) {
        for command in commands { self.connection.send(command) }
    }

    private func handle(_ event: ServerEvent) {
        let commands = self.state.withLock { state -> [ServerCommand] in
            switch event {
            case .connected:
                state.isConnected = true
                return state.isRunning && state.current == nil ? self.next(&state) : []
            case .disconnected:
                state.isConnected = false
                return []
            case .writeAnswered(let id, let response):
                if let waiter = state.writes.removeValue(forKey: id) {
                    waiter.resume(returning: response)
                    return []
                }
                return self.written(id, response, &state)
            case .requestAnswered(let token, let response):
                state.reads.removeValue(forKey: token)?.resume(returning: response)
                return []
            case .listenAnswered(let key, let response):
                return self.listened(key, response, &state)
            case .data(let path, let data, _):
                self.pushed(path, [(Path.root, data)], &state)
                return []
            case .merge(let path, let changes, _):
                self.pushed(path, changes.map { ($0.relative, $0.data) }, &state)
                return []
            case .listenRevoked, .shutdown:
                return []
            }
        }
        self.send(commands)
    }
}
