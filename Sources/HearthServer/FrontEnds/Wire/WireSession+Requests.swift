import HearthCore
import HearthSystem
import Synchronization

/// Dispatching client messages and the read-side actions: listen, unlisten, get, auth, stats (reference §1.6).
extension WireSession {
    /// Handles one whole message. A message that is not a valid envelope closes the socket with the reason; a bad
    /// request gets an error status and changes nothing.
    func process(_ message: String) async {
        let inbound: WireInbound
        do {
            inbound = try WireInbound(message: message)
        } catch {
            self.terminate(reason: error.message)
            return
        }
        switch inbound {
        case .control(let type):
            if type == "p" { self.send(WireMessage.pong) }
            if type == "n" { self.switchToSecondary() }
        case .request(let id, let action, let body) where action == "p" || action == "m":
            let started = ContinuousClock.now
            do {
                guard case .object = body else {
                    throw WireProtocolError(
                        .invalidRequest, "The body (b) of a \"\(action)\" request must be an object.")
                }
                let submission = action == "p" ? try await self.submitPut(body) : try await self.submitMerge(body)
                self.acknowledgements.append(
                    .init(id: id, action: action, started: started, write: submission.write, path: submission.path))
            } catch {
                await self.acknowledgements.barrier()
                self.send(self.failureResponse(id: id, action: action, error: error))
                self.record(action: action, error: error, since: started)
            }
        case .request(let id, let action, let body):
            await self.acknowledgements.barrier()
            let started = ContinuousClock.now
            do {
                let data = try await self.perform(action: action, body: body)
                self.send(WireMessage.response(id: id, status: "ok", data: data))
                self.record(action: action, error: nil, since: started)
            } catch {
                self.send(self.failureResponse(id: id, action: action, error: error))
                self.record(action: action, error: error, since: started)
            }
        }
    }

    /// Counts an answered request in the node's metrics, under its wire status.
    func record(action: String, error: (any Error)?, since started: ContinuousClock.Instant) {
        let status: String
        switch error {
        case nil: status = "ok"
        case let error as WireProtocolError: status = "\(error.code)"
        default: status = "unavailable"
        }
        self.context.metrics.recordWireRequest(
            action: action, status: status, seconds: Database.seconds(ContinuousClock.now - started))
    }

    /// The error response for a request that failed before or while it ran.
    func failureResponse(id: Int64, action: String, error: any Error) -> [UInt8] {
        if let error = error as? WireProtocolError { return WireMessage.failure(id: id, error) }
        self.context.log.error("wire.request_failed", ["action": action, "error": "\(error)"])
        return WireMessage.failure(
            id: id, WireProtocolError(.unavailable, "The database could not complete the request; retry shortly."))
    }

    /// Runs one action; returns the `d` of its `ok` response.
    private func perform(action: String, body: JSONValue) async throws -> [UInt8] {
        guard case .object = body else {
            throw WireProtocolError(.invalidRequest, "The body (b) of a \"\(action)\" request must be an object.")
        }
        switch action {
        case "q", "l": return try self.listen(body)
        case "n", "u": return try self.unlisten(body)
        case "g": return try self.get(body)
        case "o", "om": return try self.registerOnDisconnect(action: action, body: body)
        case "oc": return try self.cancelOnDisconnect(body)
        case "auth", "gauth": return try self.authenticate(body)
        case "unauth": return self.changeCredential(to: nil)
        case "appcheck", "unappeck", "unappcheck": return Self.emptyObject
        case "s": return Array(#""""#.utf8)
        default:
            throw WireProtocolError(
                .invalidRequest,
                "Unknown action \"\(action)\"; this server speaks protocol version 5 "
                    + "(q, n, p, m, g, o, om, oc, auth, unauth, s).")
        }
    }

    static let emptyObject = Array("{}".utf8)

    private func listen(_ body: JSONValue) throws -> [UInt8] {
        let path = try Self.path(body, allowPriority: false).path
        let (query, tag) = try Self.query(body)
        try self.authorize(.read, path)
        let transport = self.shared.withLock { $0.transport }
        guard let transport else { return Self.emptyObject }
        let listen = WireListen(namespace: self.namespace, path: path, query: query, tag: tag, transport: transport)
        let key = WireListenKey(path: path, tag: tag)
        let replaced = self.shared.withLock { $0.listens.updateValue(listen, forKey: key) }
        if let replaced { self.remove(replaced) }
        let root = self.context.database.view.addListener(listen)
        _ = listen.start(root: root)
        return Self.emptyObject
    }

    private func unlisten(_ body: JSONValue) throws -> [UInt8] {
        let path = try Self.path(body, allowPriority: false).path
        let tag = try Self.query(body).tag
        let removed = self.shared.withLock { $0.listens.removeValue(forKey: WireListenKey(path: path, tag: tag)) }
        if let removed { self.remove(removed) }
        return Self.emptyObject
    }

    private func get(_ body: JSONValue) throws -> [UInt8] {
        let path = try Self.path(body, allowPriority: false).path
        var query: QuerySpec?
        if let q = body["q"], q != .null {
            do {
                query = try QuerySpec(wire: q)
            } catch {
                throw WireProtocolError(.invalidRequest, error.message)
            }
        }
        try self.authorize(.read, path)
        var value = self.context.database.root(self.namespace).node(at: path)
        if let query, !query.loadsAllData { value = query.evaluate(value) }
        let data = value.jsonBytes(format: .export)
        guard data.count <= WireFrameSplitter.maximumFrameBytes * (WireFrameSplitter.maximumFrameCount - 1) else {
            throw WireProtocolError(
                .tooBig, "The data requested exceeds the maximum size that can be accessed with a single request.")
        }
        return data
    }

    private func authenticate(_ body: JSONValue) throws -> [UInt8] {
        guard let credential = body["cred"]?.stringValue else {
            throw WireProtocolError(.invalidRequest, "An auth request needs the token as a string \"cred\".")
        }
        return self.changeCredential(to: credential)
    }

    /// Switches the session's credential, revokes (`c`) every listen it may no longer read, and answers with the
    /// trace's `{"auth": …, "expires": …}` shape.
    private func changeCredential(to credential: String?) -> [UInt8] {
        let listens = self.shared.withLock { shared in
            shared.credential = credential
            return shared.listens
        }
        for (key, listen) in listens where !self.isAllowed(.read, listen.path) {
            let removed = self.shared.withLock { $0.listens.removeValue(forKey: key) }
            guard let removed else { continue }
            self.remove(removed)
            self.send(WireMessage.revokePush(path: listen.path, query: listen.tag == nil ? nil : listen.query))
        }
        return credential == nil ? Self.emptyObject : Array(#"{"auth":null,"expires":null}"#.utf8)
    }

    /// The emulator's `owner` credential is an administrator: the access policy is not consulted.
    func isAllowed(_ operation: AccessRequest.Operation, _ path: Path) -> Bool {
        let credential = self.shared.withLock { $0.credential }
        if credential == "owner" { return true }
        return self.context.policy.allows(
            AccessRequest(operation: operation, namespace: self.namespace, path: path, credential: credential))
    }

    func authorize(_ operation: AccessRequest.Operation, _ path: Path) throws(WireProtocolError) {
        guard self.isAllowed(operation, path) else { throw WireProtocolError.permissionDeniedError }
    }

    /// The body's `p`: `/a/b`, `a/b` or `/` (empty segments dropped); `.priority` may end a write path.
    static func path(_ body: JSONValue, allowPriority: Bool) throws(WireProtocolError)
        -> (path: Path, targetsPriority: Bool)
    {
        guard let text = body["p"]?.stringValue else {
            throw WireProtocolError(.invalidRequest, "The request needs its path as a string \"p\".")
        }
        return try Self.path(text, base: .root, allowPriority: allowPriority)
    }

    /// `relative` below `base`, validated key by key and against the depth and length limits.
    static func path(_ relative: String, base: Path, allowPriority: Bool) throws(WireProtocolError)
        -> (path: Path, targetsPriority: Bool)
    {
        var segments = relative.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        let targetsPriority = allowPriority && segments.last == ".priority"
        if targetsPriority { segments.removeLast() }
        do {
            var keys = base.keys
            for segment in segments { keys.append(try Key(validating: segment)) }
            try Path.checkLimits(keys)
            return (Path(keys: keys), targetsPriority)
        } catch {
            throw WireProtocolError(.invalidData, "Invalid path \"\(relative)\": \(error.message)")
        }
    }

    /// A listen's query and tag: only a tagged listen is filtered; an untagged one gets all data (§1.9.1).
    static func query(_ body: JSONValue) throws(WireProtocolError) -> (query: QuerySpec?, tag: Int64?) {
        var tag: Int64?
        if let t = body["t"], t != .null {
            guard let value = t.intValue else {
                throw WireProtocolError(.invalidRequest, "A listen's tag (t) must be an integer.")
            }
            tag = value
        }
        guard tag != nil, let q = body["q"], q != .null else { return (nil, tag) }
        do {
            return (try QuerySpec(wire: q), tag)
        } catch {
            throw WireProtocolError(.invalidRequest, error.message)
        }
    }
}
