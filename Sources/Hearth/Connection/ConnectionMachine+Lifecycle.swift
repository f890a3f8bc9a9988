import HearthCore
import HearthNet
import HearthWire

/// Opening, ending and restoring connections.
extension ConnectionMachine {
    /// Opens the next transport: to the host a reset named, else to the current endpoint.
    mutating func openTransport(at now: ConnectionTime, into actions: inout [Action]) {
        self.attempt += 1
        let endpoint = self.redirect ?? self.configuration.endpoints[self.endpointIndex]
        self.redirect = nil
        self.phase = .opening(since: now.monotonic)
        self.assembler = WireFrameAssembler(maximumMessageBytes: self.configuration.maximumMessageBytes)
        let target = endpoint.target(namespace: self.configuration.namespace, lastSessionID: self.lastSessionID)
        actions.append(.openTransport(attempt: self.attempt, endpoint: endpoint, target: target))
    }

    /// Closes the current transport, if any, and winds its connection down (no reconnect is planned).
    mutating func dropTransport(at now: ConnectionTime, into actions: inout [Action]) {
        switch self.phase {
        case .opening, .connected:
            actions.append(.closeTransport(attempt: self.attempt))
            self.connectionEnded(at: now, into: &actions)
        case .offline, .shutdown, .waiting:
            break
        }
    }

    /// Closes the current transport and plans the next attempt.
    mutating func abandonConnection(at now: ConnectionTime, into actions: inout [Action]) {
        self.dropTransport(at: now, into: &actions)
        self.scheduleReconnect(at: now, into: &actions)
    }

    /// The current connection is gone: the engine hears `disconnected` (when the handshake had arrived), requests
    /// whose answers are lost fail, and every write goes back to waiting to be sent.
    mutating func connectionEnded(at now: ConnectionTime, into actions: inout [Action]) {
        if case .connected(let since) = self.phase {
            actions.append(.event(.disconnected))
            if now.monotonic - since >= self.configuration.backoffResetAfter { self.backoff.reset() }
        }
        for id in self.inFlight.keys.sorted() {
            switch self.inFlight[id] {
            case .write(let writeID):
                guard let index = self.writes.firstIndex(where: { $0.id == writeID }),
                    Self.failsWhenLost(self.writes[index].request)
                else { continue }
                self.writes.remove(at: index)
                actions.append(.event(.writeAnswered(writeID, .failure(.connectionLost))))
            case .request(let token):
                actions.append(.event(.requestAnswered(token, .failure(.connectionLost))))
            case .listen, .unlisten, nil:
                break
            }
        }
        self.inFlight = [:]
        for index in self.writes.indices { self.writes[index].isSent = false }
        for key in self.listenOrder { self.listens[key]?.requestID = nil }
        self.pingSentAt = nil
        self.phase = .waiting(until: now.monotonic)
    }

    /// Whether a write whose answer was lost with the connection fails as `disconnected` instead of being sent
    /// again: a compare-and-set put (a transaction's) that names no origin, as in Firebase, since sending it again
    /// could apply the transaction twice. One that names its origin is sent again: a server that applied it
    /// answers without applying it twice.
    static func failsWhenLost(_ request: WireRequest) -> Bool {
        guard case .put(_, _, .some, nil) = request else { return false }
        return true
    }

    /// Moves to the next endpoint; dials it at once while the round lasts, after a back-off delay once every
    /// endpoint has failed since the last handshake.
    mutating func scheduleReconnect(at now: ConnectionTime, into actions: inout [Action]) {
        let count = self.configuration.endpoints.count
        self.endpointIndex = (self.endpointIndex + 1) % count
        self.failuresInRound += 1
        guard self.failuresInRound >= count else {
            self.openTransport(at: now, into: &actions)
            return
        }
        self.failuresInRound = 0
        let delay = self.backoff.nextDelay(using: &self.random)
        self.phase = .waiting(until: now.monotonic + delay)
        actions.append(.log("Reconnecting to \(self.configuration.endpoints[self.endpointIndex]) in \(delay)."))
    }

    /// The handshake arrived: report it and send again everything the server must know.
    mutating func connected(_ handshake: WireHandshake, at now: ConnectionTime, into actions: inout [Action]) {
        self.phase = .connected(since: now.monotonic)
        self.lastSessionID = handshake.sessionID
        self.failuresInRound = 0
        self.lastReceived = now.monotonic
        actions.append(.event(.connected(serverTimeOffsetMilliseconds: handshake.timestamp - now.unixMilliseconds)))
        for key in self.listenOrder { self.sendListen(key, into: &actions) }
        for id in self.writes.map(\.id) { self.sendWrite(id, into: &actions) }
        let onDisconnect = self.queuedOnDisconnect
        self.queuedOnDisconnect = []
        for (token, request) in onDisconnect { self.sendRequest(token, request, into: &actions) }
        let gets = self.queuedGets
        self.queuedGets = []
        for get in gets { self.sendRequest(get.token, get.request, into: &actions) }
    }

    /// Fails every get that was waiting for a connection.
    mutating func failQueuedGets(into actions: inout [Action]) {
        for get in self.queuedGets { actions.append(.event(.requestAnswered(get.token, .failure(.offline)))) }
        self.queuedGets = []
    }
}
