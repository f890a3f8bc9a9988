import Hearth
import HearthCore
import HearthSystem
import HearthWire

extension StarClient {
    /// One star operation in flight.
    struct Operation {
        enum Phase {
            /// The fan-out update, or a transaction's compare-and-set, waiting for its answer.
            case writing(WriteID)
            /// A transaction waiting for its listen on the post to be answered (its data comes first).
            case listening

            /// Whether a write of this operation may be on its way (so an unanswered end is uncertain).
            var wrote: Bool {
                if case .writing = self { return true }
                return false
            }
        }

        var pair: StarLedger.Pair
        var starring: Bool
        var started: ContinuousClock.Instant
        var attempts = 1
        var phase: Phase
    }

    struct State {
        /// The client id every write of this run is named with (`WriteOrigin`).
        let client: String
        let users: [Int]
        /// Which post and user each operation takes (the kernel's random numbers, fetched a buffer at a time).
        var random = BufferedSystemRandom()
        var isConnected = false
        var isRunning = false
        var sequence: Int64 = 0
        var current: Operation?
        /// Each post a transaction listens to, as the server last pushed it.
        var cache: [Int: Node] = [:]
        var ledger = StarLedger()
        var tally = StarTally()
        var writes: [WriteID: CheckedContinuation<WireResponse, Never>] = [:]
        var reads: [RequestToken: CheckedContinuation<WireResponse, Never>] = [:]

        init(client: String, users: [Int]) {
            self.client = client
            self.users = users
        }

        mutating func nextID() -> Int64 {
            self.sequence += 1
            return self.sequence
        }
    }

    /// Starts the next operation, unless stopped or every star this client could toggle went uncertain.
    func next(_ state: inout State) -> [ServerCommand] {
        guard state.isRunning,
            let (pair, starring) = self.workload.pick(users: state.users, ledger: state.ledger, using: &state.random)
        else { return [] }
        return self.begin(pair, starring: starring, &state)
    }

    private func begin(_ pair: StarLedger.Pair, starring: Bool, _ state: inout State) -> [ServerCommand] {
        if !self.usesTransactions {
            let id = state.nextID()
            state.current = Operation(
                pair: pair, starring: starring, started: .now, phase: .writing(WriteID(id)))
            let update = self.workload.starUpdate(post: pair.post, user: pair.user, starring: starring)
            return [.write(WriteID(id), .merge(path: "/", data: update, origin: self.origin(id, state)))]
        }
        state.current = Operation(pair: pair, starring: starring, started: .now, phase: .listening)
        state.cache[pair.post] = Node.empty
        return [.listen(self.listenKey(pair.post), hash: "")]
    }

    /// The post's listen was answered: its data came before the answer, so the first attempt can go.
    func listened(_ key: ListenKey, _ response: WireResponse, _ state: inout State) -> [ServerCommand] {
        guard let operation = state.current, case .listening = operation.phase,
            key == self.listenKey(operation.pair.post)
        else { return [] }
        guard case .ok = response else {
            state.tally.errors[Self.status(response, otherwise: "listen_failed"), default: 0] += 1
            return self.end(operation, .unchanged, &state)
        }
        return self.attempt(operation, &state)
    }

    /// The server's data for a post being listened to changed: keep it, for the next attempt.
    /// Each change is parsed once, and a post's cached tree, taken out of the cache while it changes, is edited in
    /// place (copying its path for every change cost the load generator a tenth of its CPU in `transaction --hot`).
    func pushed(_ path: Path, _ changes: [(relative: Path, data: WireData)], _ state: inout State) {
        guard !state.cache.isEmpty else { return }
        let trees = changes.compactMap { change in
            (try? change.data.tree()).map { (at: path.appending(change.relative), tree: $0) }
        }
        for post in Array(state.cache.keys) {
            let postPath = self.workload.postLocation(post)
            guard var node = state.cache.removeValue(forKey: post) else { continue }
            for (at, tree) in trees {
                if let below = postPath.relativePath(to: at) {
                    node.set(tree, at: below)
                } else if let above = at.relativePath(to: postPath) {
                    node = tree.node(at: above)
                }
            }
            state.cache[post] = node
        }
    }

    /// The docs' toggle on the post as last pushed, put with that value's hash.
    private func attempt(_ operation: Operation, _ state: inout State) -> [ServerCommand] {
        var operation = operation
        let cached = state.cache[operation.pair.post] ?? .empty
        let uid = self.workload.userID(operation.pair.user)
        guard let (post, starred) = StarToggle.toggled(cached.jsonValue(format: .export), uid: uid) else {
            state.tally.errors["post_missing", default: 0] += 1
            return self.end(operation, .unchanged, &state)
        }
        operation.starring = starred
        let id = state.nextID()
        operation.phase = .writing(WriteID(id))
        state.current = operation
        let path = self.workload.postLocation(operation.pair.post).description
        return [.write(WriteID(id), .put(path: path, data: post, hash: cached.hash, origin: self.origin(id, state)))]
    }

    /// A write came back: the operation is done, or a stale transaction tries again.
    func written(_ id: WriteID, _ response: WireResponse, _ state: inout State) -> [ServerCommand] {
        guard var operation = state.current, case .writing(let expected) = operation.phase, expected == id else {
            return []
        }
        switch response {
        case .ok:
            if state.isRunning { state.tally.operations += 1 }
            let took = ContinuousClock.now - operation.started
            let kind = self.usesTransactions ? "transaction" : "increment"
            state.tally.record(took, of: kind)
            self.slow?.note(kind, client: self.index, node: "realtime", took: took, attempts: operation.attempts)
            if self.usesTransactions { state.tally.attempts[operation.attempts, default: 0] += 1 }
            return self.end(operation, .applied, &state)
        case .failure(let error) where error.code == .dataStale && operation.attempts < Self.attemptLimit:
            // The server pushed the value that won before answering: try again on it at once, as the SDKs do.
            state.tally.retries += 1
            operation.attempts += 1
            return self.attempt(operation, &state)
        case .failure(let error) where error.code == .dataStale:
            state.tally.gaveUp += 1
            return self.end(operation, .unchanged, &state)
        case .failure(let error):
            state.tally.errors[Self.status(response, otherwise: "failed"), default: 0] += 1
            // `unavailable` (the write's commit was not seen in time: a leader lost, say) and `disconnected` say
            // nothing of whether the write took effect; only a refusal does.
            let refused = error.code != .unavailable && error.code.description != "disconnected"
            return self.end(operation, refused ? .unchanged : .uncertain, &state)
        }
    }

    /// Records how the operation ended, stops listening to a transaction's post, and starts the next one.
    private func end(_ operation: Operation, _ outcome: StarLedger.Outcome, _ state: inout State) -> [ServerCommand] {
        state.ledger.record(operation.pair, starring: operation.starring, outcome)
        state.current = nil
        guard self.usesTransactions else { return self.next(&state) }
        state.cache[operation.pair.post] = nil
        return [.unlisten(self.listenKey(operation.pair.post))] + self.next(&state)
    }

    private func listenKey(_ post: Int) -> ListenKey {
        ListenKey(path: self.workload.postLocation(post), query: nil, tag: nil)
    }

    private func origin(_ sequence: Int64, _ state: State) -> WriteOrigin? {
        try? WriteOrigin(client: state.client, sequence: UInt64(sequence), settledBelow: UInt64(sequence))
    }

    private static func status(_ response: WireResponse, otherwise: String) -> String {
        if case .failure(let error) = response { return error.code.description }
        return otherwise
    }
}
