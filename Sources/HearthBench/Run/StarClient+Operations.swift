import Hearth
import HearthCore
import HearthWire

extension StarClient {
    /// One star operation in flight.
    struct Operation {
        enum Phase {
            /// The fan-out update, or a transaction's compare-and-set, waiting for its answer.
            case writing(WriteID)
            /// A transaction reading the post before its next attempt.
            case reading(RequestToken)

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
        var random = SystemRandomNumberGenerator()
        var isConnected = false
        var isRunning = false
        var sequence: Int64 = 0
        var current: Operation?
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

    /// Starts the next operation: a random post (post 0 when hot) and one of this client's users whose star it
    /// knows; stops when every star it could toggle went uncertain.
    func next(_ state: inout State) -> [ServerCommand] {
        guard state.isRunning, !state.users.isEmpty else { return [] }
        let posts = self.workload.starredPosts
        for _ in 0..<64 {
            let pair = StarLedger.Pair(
                post: Int.random(in: posts, using: &state.random),
                user: state.users[Int.random(in: 0..<state.users.count, using: &state.random)])
            guard let starred = state.ledger.isStarred(pair) else { continue }
            return self.begin(pair, starring: !starred, &state)
        }
        return []
    }

    private func begin(_ pair: StarLedger.Pair, starring: Bool, _ state: inout State) -> [ServerCommand] {
        switch self.mode {
        case .increment:
            let id = state.nextID()
            state.current = Operation(
                pair: pair, starring: starring, started: .now, phase: .writing(WriteID(id)))
            let update = self.workload.starUpdate(post: pair.post, user: pair.user, starring: starring)
            return [.write(WriteID(id), .merge(path: "/", data: update, origin: self.origin(id, state)))]
        case .transaction:
            let id = state.nextID()
            state.current = Operation(
                pair: pair, starring: starring, started: .now, phase: .reading(RequestToken(id)))
            return [.get(RequestToken(id), path: self.postPath(pair.post), query: nil)]
        }
    }

    /// A transaction's read came back: attempt the toggle on it.
    func read(_ token: RequestToken, _ response: WireResponse, _ state: inout State) -> [ServerCommand] {
        guard var operation = state.current, case .reading(let expected) = operation.phase, expected == token else {
            return []
        }
        guard case .ok(let data) = response, let tree = try? data.tree(),
            let (post, starred) = StarToggle.toggled(data.jsonValue, uid: self.workload.userID(operation.pair.user))
        else {
            state.tally.errors[Self.status(response, otherwise: "post_missing"), default: 0] += 1
            state.current = nil
            return self.next(&state)
        }
        operation.starring = starred
        let id = state.nextID()
        operation.phase = .writing(WriteID(id))
        state.current = operation
        let path = self.postPath(operation.pair.post).description
        return [.write(WriteID(id), .put(path: path, data: post, hash: tree.hash, origin: self.origin(id, state)))]
    }

    /// A write came back: the operation is done, or a stale transaction tries again.
    func written(_ id: WriteID, _ response: WireResponse, _ state: inout State) -> [ServerCommand] {
        guard var operation = state.current, case .writing(let expected) = operation.phase, expected == id else {
            return []
        }
        switch response {
        case .ok:
            state.ledger.record(operation.pair, starring: operation.starring, .applied)
            if state.isRunning { state.tally.operations += 1 }
            let latency = ContinuousClock.now - operation.started
            state.tally.latency.record(latency)
            state.tally.window.record(latency)
            if self.mode == .transaction { state.tally.attempts[operation.attempts, default: 0] += 1 }
        case .failure(let error) where error.code == .dataStale && operation.attempts < Self.attemptLimit:
            state.tally.retries += 1
            operation.attempts += 1
            let token = state.nextID()
            operation.phase = .reading(RequestToken(token))
            state.current = operation
            return [.get(RequestToken(token), path: self.postPath(operation.pair.post), query: nil)]
        case .failure(let error) where error.code == .dataStale:
            state.tally.gaveUp += 1
            state.ledger.record(operation.pair, starring: operation.starring, .unchanged)
        case .failure:
            state.tally.errors[Self.status(response, otherwise: "failed"), default: 0] += 1
            state.ledger.record(operation.pair, starring: operation.starring, .unchanged)
        }
        state.current = nil
        return self.next(&state)
    }

    private func origin(_ sequence: Int64, _ state: State) -> WriteOrigin? {
        try? WriteOrigin(client: state.client, sequence: UInt64(sequence), settledBelow: UInt64(sequence))
    }

    /// `posts/$p` as a path.
    private func postPath(_ post: Int) -> Path {
        Path(keys: [Key(unchecked: "posts"), Key(unchecked: self.workload.postID(post))])
    }

    private static func status(_ response: WireResponse, otherwise: String) -> String {
        if case .failure(let error) = response { return error.code.description }
        return otherwise
    }
}
