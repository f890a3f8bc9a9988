import HearthWire

extension ConnectionMachine {
    /// What the shell must do after an input, in the order returned.
    package enum Action: Sendable, Equatable {
        /// Open transport number `attempt` to `endpoint`, asking for `target` (`/.ws?v=5&ns=…`).
        case openTransport(attempt: UInt64, endpoint: RealtimeEndpoint, target: String)
        /// Send one text frame on transport `attempt`.
        case send(attempt: UInt64, frame: String)
        /// Close transport `attempt`; the machine has already forgotten it, and ignores its later events.
        case closeTransport(attempt: UInt64)
        /// Deliver this to the sync engine.
        case event(ServerEvent)
        /// Something worth a log line (a server error message, why a connection was dropped).
        case log(String)
    }

    /// Where the connection is.
    enum Phase: Sendable, Equatable {
        /// Not connecting: never started, or `goOffline`.
        case offline
        /// The server said no connection can succeed; nothing happens until `goOnline`.
        case shutdown(reason: String)
        /// Waiting to open the next transport.
        case waiting(until: Duration)
        /// A transport was asked to open; the server's handshake has not arrived yet.
        case opening(since: Duration)
        /// The handshake arrived: requests flow.
        case connected(since: Duration)
    }

    /// What an answered request id was for.
    enum InFlight: Sendable, Equatable {
        case listen(ListenKey)
        case write(WriteID)
        case request(RequestToken)
        /// An unlisten: its answer changes nothing.
        case unlisten
    }

    /// A write the server has not answered yet.
    struct PendingWrite: Sendable, Equatable {
        var id: WriteID
        var request: WireRequest
        /// Sent on the current connection.
        var isSent = false
    }

    /// A listen the engine holds: the hash it gave and the id of its request on the current connection.
    struct LiveListen: Sendable, Equatable {
        var hash: String
        var requestID: Int64?
    }

    /// A `get` made while the connection was being set up.
    struct QueuedGet: Sendable, Equatable {
        var token: RequestToken
        var request: WireRequest
        var deadline: Duration
    }
}
