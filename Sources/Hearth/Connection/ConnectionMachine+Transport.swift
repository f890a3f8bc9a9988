import HearthCore
import HearthWire

/// What the transport reports, and the server messages it carries.
extension ConnectionMachine {
    /// Transport `attempt` finished its WebSocket handshake; the server's `h` comes next.
    package mutating func transportOpened(attempt: UInt64, at now: ConnectionTime) -> [Action] {
        []
    }

    /// Transport `attempt` is gone: the connection ends and the next attempt is planned.
    package mutating func transportClosed(
        attempt: UInt64,
        error: RealtimeConnectionError?,
        at now: ConnectionTime
    ) -> [Action] {
        guard attempt == self.attempt else { return [] }
        switch self.phase {
        case .opening, .connected:
            var actions: [Action] = []
            actions.append(.log("The connection closed: \(error?.message ?? "the server closed it")."))
            self.connectionEnded(at: now, into: &actions)
            self.scheduleReconnect(at: now, into: &actions)
            return actions
        case .offline, .shutdown, .waiting:
            return []
        }
    }

    /// One text frame from transport `attempt`: part of a message, a whole one, or a stray keep-alive.
    package mutating func transportReceived(text: String, attempt: UInt64, at now: ConnectionTime) -> [Action] {
        guard attempt == self.attempt else { return [] }
        switch self.phase {
        case .opening, .connected:
            break
        case .offline, .shutdown, .waiting:
            return []
        }
        var actions: [Action] = []
        self.lastReceived = now.monotonic
        self.pingSentAt = nil
        let message: String
        do {
            guard let complete = try self.assembler.onFrame(text) else { return [] }
            message = complete
        } catch {
            actions.append(.log("The server's frames broke the protocol (\(error.message)); reconnecting."))
            self.abandonConnection(at: now, into: &actions)
            return actions
        }
        do {
            self.receive(try WireServerMessage(decoding: message), at: now, into: &actions)
        } catch {
            actions.append(.log("Ignored a message from the server: \(error.message)"))
        }
        return actions
    }

    private mutating func receive(_ message: WireServerMessage, at now: ConnectionTime, into actions: inout [Action]) {
        if case .handshake(let handshake) = message {
            guard case .opening = self.phase else { return }
            self.connected(handshake, at: now, into: &actions)
            return
        }
        switch message {
        case .handshake, .pong, .endOfTransmission:
            break
        case .reset(let host):
            guard let endpoint = RealtimeEndpoint(authority: host, isSecure: self.currentEndpoint.isSecure) else {
                actions.append(.log("Ignored a reset to \"\(host)\", which is not a host."))
                return
            }
            actions.append(.log("The server moved this connection to \(endpoint)."))
            self.dropTransport(at: now, into: &actions)
            self.redirect = endpoint
            self.openTransport(at: now, into: &actions)
        case .serverError(let text):
            actions.append(.log("Server error: \(text)"))
        case .shutdown(let reason):
            actions.append(.log("The server shut this connection down for good: \(reason)"))
            self.dropTransport(at: now, into: &actions)
            self.phase = .shutdown(reason: reason)
            self.failQueuedGets(into: &actions)
            actions.append(.event(.shutdown(reason: reason)))
        case .authRevoked(let status, let reason):
            actions.append(.log("The server revoked the credential (\(status): \(reason)); reconnecting."))
            self.abandonConnection(at: now, into: &actions)
        case .response(let id, let response):
            guard self.isConnected else { return }
            self.answer(id, response, into: &actions)
        case .dataPush(let path, let data, let tag):
            guard self.isConnected else { return }
            actions.append(.event(.data(path: path, data, tag: tag)))
        case .mergePush(let path, let changes, let tag):
            guard self.isConnected else { return }
            actions.append(.event(.merge(path: path, changes, tag: tag)))
        case .listenRevoked(let path, let query):
            guard self.isConnected else { return }
            for key in self.listenOrder where key.path == path && (query == nil || key.query == query) {
                self.removeListen(key)
            }
            actions.append(.event(.listenRevoked(path: path, query: query)))
        }
    }

    /// Routes the answer to request `id` to what it was for.
    private mutating func answer(_ id: Int64, _ response: WireResponse, into actions: inout [Action]) {
        guard let purpose = self.inFlight.removeValue(forKey: id) else { return }
        switch purpose {
        case .listen(let key):
            guard self.listens[key]?.requestID == id else { return }
            if case .failure = response { self.removeListen(key) }
            actions.append(.event(.listenAnswered(key, response)))
        case .write(let writeID):
            self.writes.removeAll { $0.id == writeID }
            actions.append(.event(.writeAnswered(writeID, response)))
        case .request(let token):
            actions.append(.event(.requestAnswered(token, response)))
        case .unlisten:
            break
        }
    }

    /// The endpoint of the current (or last) attempt's round.
    private var currentEndpoint: RealtimeEndpoint {
        self.configuration.endpoints[self.endpointIndex]
    }
}
