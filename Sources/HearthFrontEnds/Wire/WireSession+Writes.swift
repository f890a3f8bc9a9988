import HearthCore
import HearthDatabase
import HearthRules
import HearthStorage
import HearthSystem
import HearthWire

/// The write-side actions: put (with compare-and-set), merge, and the onDisconnect queue (reference §1.6, §1.9).
///
/// Everything is validated by the shared `WriteRules` before anything is written; every write goes through
/// `Database`, so it is atomic, durable and fanned out to every listener — including this session's own, ahead of
/// the `ok`.
extension WireSession {
    /// Orders a put or merge (its `mutations`), in order with this session's other writes, and calls `answered`
    /// once with its answer (`AccessControl.order`). A write that names its origin (`WriteOrigin`) and was applied
    /// before — sent again after a lost answer, to this node or another, before or after a restart — is answered as
    /// the first time and not applied twice.
    /// - Throws: what refused the write before it was ordered; `answered` is then not called.
    func orderWrite(
        _ request: WireRequest, mutations: [Mutation],
        answered: @escaping @Sendable (WireAcknowledgements.Answer) -> Void
    ) async throws {
        let (condition, origin) = Self.conditionAndOrigin(of: request, mutations: mutations)
        try await self.context.access.order(
            self.authIdentity, namespace: self.namespace, mutations: mutations, condition: condition, origin: origin,
            connection: self.caller, completion: answered)
    }

    /// A put's compare-and-set (on the path it sets), and the origin a put or merge names.
    static func conditionAndOrigin(of request: WireRequest, mutations: [Mutation]) -> (WriteCondition?, WriteOrigin?) {
        switch request {
        case .put(_, _, let hash, let origin):
            guard let hash, let mutation = mutations.first else { return (nil, origin) }
            return (WriteCondition(path: mutation.path, expectedHash: hash), origin)
        case .merge(_, _, let origin):
            return (nil, origin)
        default:
            return (nil, nil)
        }
    }

    /// A compare-and-set put waits for its turn at its location, as REST's do (`ConditionalWriteGate`: a transaction
    /// answered `datastale` is served next when it tries again, so none loses every round); any other write goes at
    /// once. Returns the turn to end once the put is answered.
    func takeTurn(_ request: WireRequest) async -> ConditionalWriteTurn? {
        // Only the location is read here: the value (a whole post, for a transaction) is built once, by the write.
        guard case .put(let text, _, .some(let hash), _) = request,
            let location = try? WriteRules.location(text, allowingPriority: true)
        else {
            return nil
        }
        return await self.context.access.conditionalWrites.admit(
            connection: self.caller, target: .init(namespace: self.namespace, path: location.path), etag: hash)
    }

    /// Ends a compare-and-set's turn with how it was answered.
    func endTurn(_ turn: ConditionalWriteTurn, _ result: WireAcknowledgements.Answer) {
        let answer: ConditionalWriteScheduler.Answer =
            switch result {
            case .success(.committed): .committed
            case .success(.conditionFailed(let current)): .conditionFailed(etag: current.hash)
            case .failure: .failed
            }
        self.context.access.conditionalWrites.answered(turn, answer)
    }

    /// The response to a write: `ok` once it is durable, `datastale` when its compare-and-set failed, or why it
    /// failed (refused before it was ordered as any request is, `failureResponse`).
    func acknowledgement(_ entry: WireAcknowledgements.Entry, _ answer: WireAcknowledgements.Answer)
        -> WireServerMessage
    {
        switch answer {
        case .success(.committed):
            return .response(id: entry.id, .okEmpty)
        case .success(.conditionFailed):
            return .response(
                id: entry.id,
                .failure(
                    WireProtocolError(
                        .dataStale,
                        "The data at \(entry.path) changed since the client read it; retry with the new value.")))
        case .failure(let error) where error is DatabaseClosedError || error is StorageError:
            return .response(
                id: entry.id,
                .failure(WireProtocolError(.unavailable, "The database could not complete the write; retry shortly.")))
        case .failure(let error):
            return self.failureResponse(id: entry.id, action: entry.action, error: error)
        }
    }

    /// `o` and `om`: checks the write now, against the rules and data of this moment and with the identity the
    /// client has now, and queues it for when the client goes away. A session holds at most
    /// `maximumOnDisconnects` operations of at most `maximumOnDisconnectBytes` together; past either, the request
    /// is refused (`too_many_ondisconnects`) and nothing is queued.
    func registerOnDisconnect(_ request: WireRequest) throws -> WireData {
        let (path, mutations) = try request.mutations()
        let (countLimit, byteLimit) = (self.context.maximumOnDisconnects, self.context.maximumOnDisconnectBytes)
        let bytes = Self.heldBytes(path: path, mutations: mutations, upTo: byteLimit)
        guard bytes <= byteLimit else { throw Self.onDisconnectLimit(count: countLimit, bytes: byteLimit) }
        let database = self.context.database
        let verdict = self.context.access.checkWrite(
            self.authIdentity, namespace: self.namespace, mutations: mutations, root: { database.root(self.namespace) },
            now: database.now())
        guard verdict.isAllowed else { throw WireProtocolError.permissionDeniedError }
        let charged = self.shared.withLock { shared -> (any WireTransport)?? in
            guard shared.onDisconnect.count < countLimit, bytes <= byteLimit - shared.onDisconnectBytes else {
                return .none
            }
            shared.onDisconnect.append(WireOnDisconnect(path: path, mutations: mutations, bytes: bytes))
            shared.onDisconnectBytes += bytes
            return .some(self.hold(bytes, holding: &shared))
        }
        guard let charged else { throw Self.onDisconnectLimit(count: countLimit, bytes: byteLimit) }
        self.charge(bytes, to: charged)
        return Self.emptyObject
    }

    /// The refusal of an onDisconnect operation past the session's limits.
    private static func onDisconnectLimit(count: Int, bytes: Int) -> WireProtocolError {
        WireProtocolError(
            .tooManyOnDisconnects,
            "A connection may hold at most \(count) onDisconnect operations of \(bytes) bytes together; cancel "
                + "some (onDisconnect().cancel()) or write less.")
    }

    /// `oc`: drops queued operations registered at `path` or below it, releasing what they were charged.
    func cancelOnDisconnect(_ text: String) throws -> WireData {
        let path = try Self.location(text, allowingPriority: false).path
        let (released, transport) = self.shared.withLock { shared -> (Int, (any WireTransport)?) in
            let released = shared.onDisconnect.reduce(0) { path.contains($1.path) ? $0 + $1.bytes : $0 }
            shared.onDisconnect.removeAll { path.contains($0.path) }
            shared.onDisconnectBytes -= released
            return (released, self.hold(-released, holding: &shared))
        }
        self.charge(-released, to: transport)
        return Self.emptyObject
    }

    /// Runs one queued operation after the client went away, as it was authorized when it was registered; server
    /// values resolve now. Failures are logged; there is nobody left to tell.
    func runOnDisconnect(_ operation: WireOnDisconnect) async {
        guard !operation.mutations.isEmpty else { return }
        do {
            _ = try await self.context.database.write(namespace: self.namespace, mutations: operation.mutations)
        } catch let error as StorageError where error.code == .cancelled {
            // The node is shutting down: the write is in the log's queue, which closing the log makes durable.
            self.context.log.info("wire.on_disconnect_queued_at_shutdown", ["path": "\(operation.path)"])
        } catch {
            self.context.log.error(
                "wire.on_disconnect_failed", ["path": "\(operation.path)", "error": "\(error)"])
        }
    }
}
