import HearthCore
import HearthDatabase
import HearthNode
import HearthRules
import HearthSystem
import HearthWire

/// Dispatching client messages and the read-side actions: listen, unlisten, get, auth, stats (reference §1.6).
extension WireSession {
    /// Handles one whole message. A message that is not a valid envelope closes the socket with the reason; a bad
    /// request gets an error status and changes nothing.
    func process(_ text: String) async {
        if case .write(let write) = WireWrite.decoding(text) { return await self.submit(write) }
        let message: WireClientMessage
        do {
            message = try WireClientMessage(decoding: text)
        } catch {
            switch error {
            case .malformed(let reason):
                self.terminate(reason: reason.message)
            case .rejected(let id, let action, let reason):
                await self.acknowledgements.barrier()
                self.send(.response(id: id, .failure(reason)))
                self.record(action: action, error: reason, since: .now)
            }
            return
        }
        switch message {
        case .control(let control):
            if control == .ping { self.send(.pong) }
            if control == .endOfTransmission { self.switchToSecondary() }
        case .request(let id, let request):
            switch request {
            case .put, .merge: await self.submit(id: id, request)
            default: await self.answer(id: id, request)
            }
        }
    }

    /// Orders a put or merge now; its answer follows, in request order, once it is durable and shown (or refused).
    private func submit(id: Int64, _ request: WireRequest) async {
        await self.acknowledgements.waitForRoom()
        var entry = WireAcknowledgements.Entry(
            id: id, action: request.action, started: .now, path: .root, turn: await self.takeTurn(request))
        let mutations: [Mutation]
        do {
            (entry.path, mutations) = try request.mutations()
        } catch {
            return self.acknowledge(self.acknowledgements.append(entry), .failure(error))
        }
        let number = self.acknowledgements.append(entry)
        do {
            try await self.orderWrite(request, mutations: mutations) { self.acknowledge(number, $0) }
        } catch {
            self.acknowledge(number, .failure(error))
        }
    }

    /// Orders a put without a hash or a merge decoded straight from its bytes (`WireWrite`), as `submit(id:_:)`
    /// orders the same request decoded the general way: no turn to wait for, no condition.
    private func submit(_ write: WireWrite) async {
        await self.acknowledgements.waitForRoom()
        let entry = WireAcknowledgements.Entry(id: write.id, action: write.action, started: .now, path: write.path)
        let number = self.acknowledgements.append(entry)
        do {
            try await self.context.access.order(
                self.authIdentity, namespace: self.namespace, mutations: write.mutations, condition: nil,
                origin: write.origin, connection: self.caller
            ) { self.acknowledge(number, $0) }
        } catch {
            self.acknowledge(number, .failure(error))
        }
    }

    /// Records the answer of write `number`; answers go out in request order.
    func acknowledge(_ number: UInt64, _ answer: WireAcknowledgements.Answer) {
        self.acknowledgements.answer(number, answer) { entry, answer in
            if let turn = entry.turn { self.endTurn(turn, answer) }
            let error: (any Error)?
            switch answer {
            case .success(.committed):
                // Every committed write's answer: written straight into its frame (`acknowledgement` makes the same
                // bytes as a message).
                self.sendAcknowledgement(id: entry.id)
                error = nil
            case .success(.conditionFailed):
                self.send(self.acknowledgement(entry, answer))
                error = WireProtocolError(.dataStale, "")
            case .failure(let failure):
                self.send(self.acknowledgement(entry, answer))
                error = failure
            }
            self.record(action: entry.action, error: error, since: entry.started)
        }
    }

    /// Answers any other request once every earlier write has been acknowledged.
    private func answer(id: Int64, _ request: WireRequest) async {
        await self.acknowledgements.barrier()
        let started = ContinuousClock.now
        do {
            try await self.passReadBarrier(request)
            let response = try self.perform(request)
            let message = WireServerMessage.response(id: id, .ok(response)).encoded()
            guard message.count <= WireFrameSplitter.maximumMessageBytes else {
                throw WireProtocolError(
                    .tooBig, "The data requested exceeds the maximum size that can be accessed with a single request.")
            }
            self.send(message)
            self.record(action: request.action, error: nil, since: started)
        } catch {
            self.send(self.failureResponse(id: id, action: request.action, error: error))
            self.record(action: request.action, error: error, since: started)
        }
    }

    /// A get or a listen first passes the database's read barrier at its path, so its data (a listen's first push
    /// included: it registers after the barrier) reflects every write acknowledged before it on any node of a
    /// cluster.
    private func passReadBarrier(_ request: WireRequest) async throws {
        let text: String
        switch request {
        case .get(let path, _), .listen(let path, _, _, _): text = path
        default: return
        }
        let path = try Self.location(text, allowingPriority: false).path
        try await self.context.database.readBarrier(namespace: self.namespace, path: path)
    }

    /// Counts an answered request in the node's metrics, under its wire status.
    func record(action: String, error: (any Error)?, since started: ContinuousClock.Instant) {
        let status: String
        switch error {
        case nil: status = "ok"
        case let error as WireProtocolError: status = "\(error.code)"
        case is UnrepresentableIncrementError: status = "\(WireProtocolError.Code.invalidData)"
        default: status = "unavailable"
        }
        self.context.metrics.recordWireRequest(
            action: action, status: status, seconds: Database.seconds(ContinuousClock.now - started))
    }

    /// The error response for a request that failed before or while it ran.
    func failureResponse(id: Int64, action: String, error: any Error) -> WireServerMessage {
        if let error = error as? WireProtocolError { return .response(id: id, .failure(error)) }
        if error is AccessDeniedError { return .response(id: id, .failure(.permissionDeniedError)) }
        if let error = error as? UnrepresentableIncrementError {
            return .response(id: id, .failure(WireProtocolError(.invalidData, error.description)))
        }
        if let error = error as? any WriteUnavailableError {
            return .response(id: id, .failure(WireProtocolError(.unavailable, error.description)))
        }
        self.context.log.error("wire.request_failed", ["action": action, "error": "\(error)"])
        return .response(
            id: id,
            .failure(WireProtocolError(.unavailable, "The database could not complete the request; retry shortly.")))
    }

    /// Runs one request that is not a put or merge; returns the data of its `ok` response.
    private func perform(_ request: WireRequest) throws -> WireData {
        switch request {
        case .listen(let path, let query, let tag, _): return try self.listen(path, query: query, tag: tag)
        case .unlisten(let path, _, let tag): return try self.unlisten(path, tag: tag)
        case .get(let path, let query): return try self.get(path, query: query)
        case .onDisconnectPut, .onDisconnectMerge: return try self.registerOnDisconnect(request)
        case .onDisconnectCancel(let path): return try self.cancelOnDisconnect(path)
        case .auth(let credential, let acting), .googleAuth(let credential, let acting):
            return try self.changeCredential(to: credential, acting: acting)
        case .unauth: return try self.changeCredential(to: nil, acting: nil)
        case .appCheck, .unAppCheck: return Self.emptyObject
        case .stats: return .json(.string(""))
        case .put, .merge: preconditionFailure("A \(request.action) is submitted, never performed: \(request)")
        }
    }

    static let emptyObject = WireData.json(.object([:]))

    private func listen(_ text: String, query: QuerySpec?, tag: Int64?) throws -> WireData {
        let path = try Self.location(text, allowingPriority: false).path
        try self.authorizeRead(path, query: query)
        let transport = self.shared.withLock { $0.transport }
        guard let transport else { return Self.emptyObject }
        let access = self.context.access
        let listen = WireListen(
            namespace: self.namespace, path: path, query: query, tag: tag, transport: transport,
            evaluate: { [namespace = self.namespace] in access.evaluate($0, namespace: namespace, path: path, node: $1)
            })
        let key = WireListenKey(path: path, tag: tag)
        let bytes = Self.heldBytes(listenAt: path)
        let limit = self.context.maximumListens
        let added = self.shared.withLock { shared -> (replaced: WireListen?, charged: (any WireTransport)?)? in
            guard shared.listens[key] != nil || shared.listens.count < limit else { return nil }
            let replaced = shared.listens.updateValue(listen, forKey: key)
            return (replaced, replaced == nil ? self.hold(bytes, holding: &shared) : nil)
        }
        guard let added else {
            throw WireProtocolError(
                .tooManyListens,
                "This connection already holds \(limit) listens, the most this server allows one connection; stop "
                    + "listening somewhere (off()) before listening to more.")
        }
        if let replaced = added.replaced { self.remove(replaced) } else { self.charge(bytes, to: added.charged) }
        let root = self.context.database.view.addListener(listen)
        _ = listen.start(root: root)
        // Firebase's warning for a query ordered by a child (or by value) that the rules declare no index for: it
        // still works, by scanning, and the SDK logs "Using an unspecified index".
        if let query, QueryIndexes.isIndexable(query),
            !access.declaresIndex(of: query, namespace: self.namespace, path: path)
        {
            return .json(.object(["w": .array([.string("no_index")])]))
        }
        return Self.emptyObject
    }

    private func unlisten(_ text: String, tag: Int64?) throws -> WireData {
        let path = try Self.location(text, allowingPriority: false).path
        if let removed = self.dropListen(WireListenKey(path: path, tag: tag)) { self.remove(removed) }
        return Self.emptyObject
    }

    private func get(_ text: String, query: QuerySpec?) throws -> WireData {
        let path = try Self.location(text, allowingPriority: false).path
        try self.authorizeRead(path, query: query)
        var value = self.context.database.root(self.namespace).node(at: path)
        if let query, !query.loadsAllData {
            value = self.context.access.evaluate(query, namespace: self.namespace, path: path, node: value)
        }
        return .node(value)
    }

    /// Checks the session's new credential, switches to it, revokes (`c`) every listen it may no longer read,
    /// and answers with the trace's `{"auth": …, "expires": …}` shape. A credential that is no valid token is
    /// refused (`invalid_token`, `expired_token`) and the session keeps the identity it had.
    private func changeCredential(to credential: String?, acting: WireAuthOverride?) throws(WireProtocolError)
        -> WireData
    {
        var authentication: Authentication
        do {
            authentication = try self.context.access.authenticate(credential)
        } catch {
            self.context.log.info("wire.token_refused", ["reason": error.message])
            throw WireProtocolError(error.code == .expiredToken ? .expiredToken : .invalidToken, error.message)
        }
        if let acting {
            guard authentication.identity == .admin else {
                throw WireProtocolError(
                    .permissionDenied, "Only an administrator's credential may act as another user (authvar, noauth).")
            }
            switch acting {
            case .auth(let authvar): authentication.identity = .user(RuleValue(json: authvar))
            case .unauthenticated: authentication.identity = .anonymous
            }
        }
        let generation = self.shared.withLock { shared in
            shared.authentication = authentication
            shared.authGeneration += 1
            return shared.authGeneration
        }
        self.revokeDisallowedListens()
        if let expires = authentication.expires { self.expire(generation, at: expires) }
        guard credential != nil else { return Self.emptyObject }
        return .json(
            .object([
                "auth": authentication.identity.auth.jsonValue,
                // A token's `exp` is the issuer's number: one past Int64's range is answered as it is, never
                // converted (which would trap).
                "expires": authentication.expires.map {
                    Int64(exactly: $0.rounded(.down)).map { .int($0) } ?? .double($0)
                }
                    ?? .null,
            ]))
    }

    /// At `expires` (seconds since the Unix epoch), unless the client authenticated again since: tells it its
    /// token expired (`ac`), drops back to unauthenticated and revokes what that may not read. One timer per
    /// session: a newer credential's replaces (cancels) the older one's, so repeated `auth`s keep no sleeping tasks.
    /// The timer is clamped to a year: a token's `exp` is the issuer's number, and a `Duration` past its range
    /// would trap.
    private func expire(_ generation: UInt64, at expires: Double) {
        let remaining = expires - Double(self.context.database.now()) / 1000
        let seconds = remaining.isNaN ? 0 : min(max(0, remaining), 365 * 86_400)
        let timer = Task { [weak self] in
            try await Task.sleep(for: .seconds(seconds))
            guard let self else { return }
            let isCurrent = self.shared.withLock { shared -> Bool in
                guard shared.authGeneration == generation else { return false }
                shared.authentication = Authentication(identity: .anonymous, expires: nil)
                shared.authGeneration += 1
                return true
            }
            guard isCurrent else { return }
            self.send(.authRevoked(status: "expired_token", reason: "Auth token is expired."))
            self.revokeDisallowedListens()
        }
        let older = self.shared.withLock { shared in
            defer { shared.expiryTimer = timer }
            return shared.expiryTimer
        }
        older?.cancel()
    }

    /// Revokes (`c`) every listen the session's identity may no longer read under the rules in force.
    func revokeDisallowedListens() {
        let listens = self.shared.withLock { $0.listens }
        for (key, listen) in listens where !self.mayRead(listen.path, query: listen.query) {
            guard let removed = self.dropListen(key) else { continue }
            self.remove(removed)
            self.send(.listenRevoked(path: listen.path, query: listen.tag == nil ? nil : listen.query))
        }
    }

    /// Takes the listen at `key` out of the session's table, releasing what it was charged.
    private func dropListen(_ key: WireListenKey) -> WireListen? {
        let bytes = Self.heldBytes(listenAt: key.path)
        let (removed, transport) = self.shared.withLock { shared -> (WireListen?, (any WireTransport)?) in
            guard let removed = shared.listens.removeValue(forKey: key) else { return (nil, nil) }
            return (removed, self.hold(-bytes, holding: &shared))
        }
        if removed != nil { self.charge(-bytes, to: transport) }
        return removed
    }

    /// Who the session's client is now.
    var authIdentity: AuthIdentity { self.shared.withLock { $0.authentication.identity } }

    func mayRead(_ path: Path, query: QuerySpec?) -> Bool {
        self.context.access.mayRead(self.authIdentity, namespace: self.namespace, path: path, query: query)
    }

    func authorizeRead(_ path: Path, query: QuerySpec?) throws(WireProtocolError) {
        guard self.mayRead(path, query: query) else { throw WireProtocolError.permissionDeniedError }
    }

    /// A request's path under the shared write rules, refused as `invalid_data` when it breaks them.
    static func location(_ text: String, below base: Path = .root, allowingPriority: Bool) throws(WireProtocolError)
        -> WriteLocation
    {
        try Self.applyingRules { () throws(WriteRuleError) in
            try WriteRules.location(text, below: base, allowingPriority: allowingPriority)
        }
    }

    /// Runs shared write rules, turning a broken rule into the wire's `invalid_data` refusal.
    static func applyingRules<T>(_ rules: () throws(WriteRuleError) -> T) throws(WireProtocolError) -> T {
        do {
            return try rules()
        } catch {
            throw WireProtocolError(error)
        }
    }
}
