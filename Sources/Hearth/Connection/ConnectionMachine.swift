import HearthNet
import HearthWire

/// The client's realtime connection as a pure value: what Firebase's JavaScript SDK splits between
/// `PersistentConnection` and `Connection`, with no socket, clock or thread of its own.
///
/// Inputs are the sync engine's `ServerCommand`s, `goOnline` / `goOffline`, what the transport reports (opened,
/// a text frame, closed) and `tick`s of the clock; each returns `Action`s for the shell (`PersistentConnection`):
/// open or close a transport, send a frame, deliver a `ServerEvent`, log. `nextWake` says when to tick next.
///
/// The rules it keeps:
/// - **Handshake.** The server's `h` makes the connection `connected`: its `ts` gives the server time offset, its
///   `s` the session id sent back as `ls` on the next attempt. Until then nothing is sent; an attempt with no
///   handshake within `handshakeTimeout` is dropped.
/// - **Requests.** Each request gets the next id (ids are never reused, across reconnects too); answers are routed by id to `listenAnswered`, `writeAnswered` or
///   `requestAnswered`. Pushes become `data`, `merge` and `listenRevoked`. Messages longer than one frame go out as
///   a count frame and parts (`WireFrameSplitter`) and come back together in a `WireFrameAssembler`.
/// - **Listens.** A `listen` for a key already live changes only the hash it is sent with after the next
///   reconnect; resent listens carry the hash the engine last gave (Hearth's server sends the data whatever the
///   hash, so a stale one costs nothing there).
/// - **Restoring.** After every handshake the connection sends each live listen again, then every unanswered write
///   in the order it was made, then the onDisconnect requests and gets that waited for it (Firebase's order).
///   A write the engine named (`WriteOrigin`: the engine's client id and the write's number) is recognised by
///   every shard that applied it, on any node and across restarts, so sending it again after its answer was lost
///   applies it once (an unanswered `ServerValue.increment` counts once); each send says which of the client's
///   writes are all answered, so the server can forget them. A transaction's compare-and-set put that names no
///   origin is not resent: it fails with `disconnected` (as in Firebase) and the engine runs the transaction again.
/// - **Offline.** Listens, writes and onDisconnect requests made while offline wait for the connection. A `get`
///   fails at once with `disconnected` when offline by choice (`goOffline`) or shut down, and otherwise waits up to
///   `getTimeout` for a connection. Requests other than writes that were in flight when the connection dropped fail
///   with `disconnected`: their answer is lost.
/// - **Keep-alive.** After `pingAfterIdle` without a message from the server it sends a ping; if nothing arrives
///   within `pongTimeout` the connection is dead (after the computer slept, say): it is closed and redialled.
/// - **Reconnecting.** Every ended attempt moves to the next endpoint. Within a round (each endpoint tried once
///   since the last handshake) the next one is dialled at once; after a failed round the machine waits a jittered
///   exponential `Backoff`. A connection that lived `backoffResetAfter` resets the back-off. A reset (`r`) dials the
///   named host at once; a shutdown (`s`) stops reconnecting and reports its reason; `ac` reconnects.
package struct ConnectionMachine {
    package let configuration: Configuration
    var phase = Phase.offline
    /// The number of the latest transport; events from older ones are ignored.
    var attempt: UInt64 = 0
    var endpointIndex = 0
    /// Attempts that ended since the last handshake, within the current round.
    var failuresInRound = 0
    /// The host a reset message named, dialled next.
    var redirect: RealtimeEndpoint?
    /// The last handshake's session id, sent as `ls`.
    package internal(set) var lastSessionID: String?
    var backoff: Backoff
    var random: any RandomNumberGenerator & Sendable
    var nextRequestID: Int64 = 1
    var listens: [ListenKey: LiveListen] = [:]
    /// The live listens in the order they were made, the order they are sent again.
    var listenOrder: [ListenKey] = []
    var writes: [PendingWrite] = []
    var queuedOnDisconnect: [(token: RequestToken, request: WireRequest)] = []
    var queuedGets: [QueuedGet] = []
    var inFlight: [Int64: InFlight] = [:]
    var assembler: WireFrameAssembler
    /// When the server was last heard from on the current connection.
    var lastReceived = Duration.zero
    /// When the unanswered ping went out.
    var pingSentAt: Duration?

    /// - Parameter random: draws the back-off's jitter; pass a seeded generator for a repeatable schedule.
    package init(
        configuration: Configuration,
        random: some RandomNumberGenerator & Sendable = SystemRandomNumberGenerator()
    ) {
        self.configuration = configuration
        self.backoff = configuration.backoff
        self.random = random
        self.assembler = WireFrameAssembler(maximumMessageBytes: configuration.maximumMessageBytes)
    }

    /// Whether the handshake of the current connection has arrived.
    package var isConnected: Bool {
        if case .connected = self.phase { return true }
        return false
    }

    /// When the shell should call `tick` next, if ever.
    package var nextWake: Duration? {
        var wake: Duration?
        switch self.phase {
        case .offline, .shutdown:
            break
        case .waiting(let until):
            wake = until
        case .opening(let since):
            wake = since + self.configuration.handshakeTimeout
        case .connected:
            wake =
                self.pingSentAt.map { $0 + self.configuration.pongTimeout }
                ?? self.lastReceived + self.configuration.pingAfterIdle
        }
        for get in self.queuedGets { wake = min(wake ?? get.deadline, get.deadline) }
        return wake
    }

    /// Starts connecting, unless already online; after `goOffline` or a shutdown the back-off starts over.
    package mutating func goOnline(at now: ConnectionTime) -> [Action] {
        switch self.phase {
        case .offline, .shutdown:
            var actions: [Action] = []
            self.backoff.reset()
            self.failuresInRound = 0
            self.openTransport(at: now, into: &actions)
            return actions
        case .waiting, .opening, .connected:
            return []
        }
    }

    /// Closes the connection and stays offline until `goOnline`; gets waiting for a connection fail.
    package mutating func goOffline(at now: ConnectionTime) -> [Action] {
        var actions: [Action] = []
        self.dropTransport(at: now, into: &actions)
        self.phase = .offline
        self.failQueuedGets(into: &actions)
        return actions
    }

    /// Time passed: dial when the back-off is over, give up on a silent attempt, ping or drop a silent
    /// connection, fail gets that waited too long.
    package mutating func tick(at now: ConnectionTime) -> [Action] {
        var actions: [Action] = []
        let time = now.monotonic
        switch self.phase {
        case .offline, .shutdown:
            break
        case .waiting(let until):
            if time >= until { self.openTransport(at: now, into: &actions) }
        case .opening(let since):
            if time >= since + self.configuration.handshakeTimeout {
                actions.append(.log("No handshake from the server within \(self.configuration.handshakeTimeout)."))
                self.abandonConnection(at: now, into: &actions)
            }
        case .connected:
            if let pingSentAt, time >= pingSentAt + self.configuration.pongTimeout {
                actions.append(.log("The server answered nothing for \(time - self.lastReceived); reconnecting."))
                self.abandonConnection(at: now, into: &actions)
            } else if self.pingSentAt == nil, time >= self.lastReceived + self.configuration.pingAfterIdle {
                self.pingSentAt = time
                _ = self.send(.control(.ping), into: &actions)
            }
        }
        let expired = self.queuedGets.filter { $0.deadline <= time }
        self.queuedGets.removeAll { $0.deadline <= time }
        for get in expired { actions.append(.event(.requestAnswered(get.token, .failure(.offline)))) }
        return actions
    }
}
