import HearthSystem

/// HTTP/1.1 on one connection: the `ConnectionHandler` an `HTTPServer` gives the reactor for each accepted socket.
///
/// It parses requests, hands them to the server's task group and pauses reading until the replies come back (so
/// later pipelined requests wait in the parser's buffer and answers keep their order), then keeps the connection
/// alive, streams, or hands it over to an upgrade handler. Pipelined requests already read when one is complete go
/// over together, as one batch, while the application admits them (`HTTPRequestHandler.sharesBatches`): a writer
/// pipelining PUTs has them ordered in one hand-off, as a realtime client's pipelined puts are. Once the application
/// says a batch of such requests is ordered (`HTTPBatchOrdered`), the next batch of them is taken while the first is
/// answered (up to `maximumBatchesInFlight`); answers still leave in request order, and a request that shares no
/// batch waits until every batch ahead of it is answered. A batch with no unordered batch ahead of it is first offered
/// to the application on the reactor thread (`HTTPRequestHandler.handleAtOnce`), which may order it there instead of
/// in a task. Its timer is the header, body or idle timeout. Confined
/// to the reactor thread like every handler.
final class HTTPConnectionHandler: ConnectionHandler {
    /// The server's limits, in the reactor's units.
    struct Settings {
        var maximumHeaderBytes: Int
        var headerTimeout: UInt64
        var idleTimeout: UInt64
        var minimumDataRate: MinimumDataRate
        var bodyDeadline: UInt64?
    }

    /// What the connection is doing, which decides what inbound bytes mean.
    enum Phase {
        /// Parsing a request head or body (or idle between keep-alive requests).
        case reading
        /// Requests (one, or batches of pipelined ones, in order: `inFlight`) are with the application; reading
        /// pauses so later pipelined requests wait in the parser's buffer.
        case awaitingReply
        /// A `.stream` reply is in progress; inbound bytes are discarded.
        case streaming
        /// Taken over by an upgrade handler; inbound bytes go to it.
        case upgraded(any UpgradedConnectionHandler)
        /// The last response is on its way; the reactor closes the connection once it is flushed.
        case closing
    }

    /// Which timeout the connection's timer stands for.
    enum TimerKind {
        case head
        case idle
        /// A check of the request body's data rate.
        case body
        /// A check of the data rate of the WebSocket message in progress.
        case message
    }

    /// Who must hear, exactly once, that the connection closed.
    enum Attachment {
        case stream(any HTTPStreamSession)
        case upgrade(any UpgradedConnectionHandler)
    }

    /// The most pipelined requests, and body bytes together, one batch hands to the application.
    static let maximumBatchRequests = 1024
    static let maximumBatchBodyBytes = 1024 * 1024
    /// The most batches a connection has with the application at once (all but the newest ordered, and being
    /// answered), so a client pipelining writes cannot make the node hold more than this many batches of them.
    static let maximumBatchesInFlight = 4

    /// A batch with the application: what its answers need of their heads, whether it is ordered, and its replies
    /// once they came (held until every batch before it is answered).
    struct InFlightBatch {
        let number: UInt64
        let framings: [HTTPAnswerFraming]
        /// Whether the requests behind it may be read before it is answered: its last request shares batches and
        /// keeps the connection open.
        let admitsReadAhead: Bool
        var isOrdered = false
        var replies: [HTTPReply]?
    }

    /// Above this many bytes queued for the client, the connection takes no more of its requests (pipelined
    /// HTTP requests, WebSocket messages) until the client has read down to `outputLowWater`.
    static let outputHighWater = 1024 * 1024
    static let outputLowWater = 256 * 1024

    let settings: Settings
    let application: any HTTPRequestHandler
    let requests: AsyncStream<ReactorRequest>.Continuation
    /// The server's count of batches whose replies have not come back, which a batch taken at once joins.
    let outstanding: OutstandingReplies
    var parser: HTTPRequestParser
    var phase = Phase.reading
    var attachment: Attachment?
    /// The head whose body is being read.
    var pendingHead: HTTPRequestHead?
    var timerKind = TimerKind.head
    /// When the connection went idle between keep-alive requests; `nil` while a request is in progress.
    var idleSince: UInt64?
    /// The progress of the body (or, once upgraded, the message) arriving, held to the minimum data rate.
    var inputWatch: DataRateWatch?
    /// An error answer (a refused or malformed request) that came right behind a batch: sent, and the connection
    /// closed, once the batch is answered.
    var heldAnswer: HTTPResponse?
    /// Batches with the application, oldest first.
    var inFlight: [InFlightBatch] = []
    /// The number the next batch handed over gets.
    var nextBatch: UInt64 = 0
    /// A request read behind ordered batches that shares no batch: handed over once every batch ahead of it is
    /// answered, so it sees all their effects.
    var heldRequest: (framing: HTTPAnswerFraming, request: HTTPRequest)?

    init(
        settings: Settings, application: any HTTPRequestHandler, requests: AsyncStream<ReactorRequest>.Continuation,
        outstanding: OutstandingReplies
    ) {
        self.settings = settings
        self.application = application
        self.requests = requests
        self.outstanding = outstanding
        self.parser = HTTPRequestParser(maximumHeaderBytes: settings.maximumHeaderBytes)
    }

    var isReading: Bool {
        if case .reading = self.phase { return true }
        return false
    }

    func connectionOpened(_ connection: Connection) {
        self.setTimer(.head, on: connection)
    }

    func received(_ bytes: UnsafeRawBufferPointer, on connection: Connection) {
        switch self.phase {
        case .reading:
            // A body's bytes count toward its data rate but never restart its timer: a client trickling a byte
            // at a time must not hold the connection for ever.
            if self.pendingHead != nil {
                self.inputWatch?.add(bytes.count)
            } else if self.timerKind == .idle {
                self.setTimer(.head, on: connection)
            }
            self.parser.append(bytes)
            self.processRequests(connection)
            connection.writer.setInboundHeld(self.parser.heldByteCount)
        case .upgraded(let handler):
            let inbound = handler.receivedHolding(bytes)
            connection.writer.setInboundHeld(inbound.heldBytes)
            self.watchMessage(isMidMessage: inbound.isMidMessage, received: bytes.count, on: connection)
            if !connection.isClosed, connection.queuedOutboundBytes > Self.outputHighWater {
                connection.pauseReading()
                connection.notifyWhenOutputDrains(to: Self.outputLowWater)
            }
        case .streaming, .closing:
            break
        case .awaitingReply:
            preconditionFailure("bytes read while awaiting a reply in phase \(self.phase)")
        }
    }

    func peerClosed(_ connection: Connection) {
        switch self.phase {
        case .reading where !self.inFlight.isEmpty:
            // Batches read ahead are still answered; the last answer closes the connection.
            self.stopReadingAhead(connection)
        case .awaitingReply, .closing:
            // The reply still goes out (and closes the connection, since the peer is gone).
            break
        case .reading, .streaming, .upgraded:
            connection.close()
        }
    }

    func timerFired(_ connection: Connection) {
        switch self.timerKind {
        case .head:
            // Behind batches still with the application, the timeouts start again once they are answered.
            guard self.isReading, self.pendingHead == nil, self.inFlight.isEmpty else { return }
            let message = "The request head did not arrive within the header timeout; send it promptly."
            self.respond(to: connection, with: HTTPParserError(.headTimeout, message))
        case .body:
            guard self.isReading, self.pendingHead != nil, let watch = self.inputWatch else { return }
            switch watch.verdict(now: MonotonicClock.now()) {
            case .keepingUp:
                self.setTimer(.body, on: connection)
            case .tooSlow:
                let message =
                    "The request body arrived slower than \(watch.rate.bytesPerSecond) bytes/s; send it without "
                    + "long pauses."
                self.respond(to: connection, with: HTTPParserError(.headTimeout, message))
            case .pastDeadline:
                let seconds = Double(watch.deadline ?? 0) / 1e9
                let message = "The request body did not arrive within \(seconds) s; send less, or send it faster."
                self.respond(to: connection, with: HTTPParserError(.headTimeout, message))
            }
        case .message:
            guard case .upgraded(let handler) = self.phase, let watch = self.inputWatch else { return }
            guard handler.isMidMessage else {
                self.inputWatch = nil
                return
            }
            if watch.verdict(now: MonotonicClock.now()) == .keepingUp {
                self.setTimer(.message, on: connection)
            } else {
                self.inputWatch = nil
                handler.inputTooSlow(watch.rate)
            }
        case .idle:
            guard self.inFlight.isEmpty else { return }
            connection.close()
        }
    }

    /// Holds a WebSocket message that has begun to the minimum data rate, from its first bytes to its last.
    /// - Parameter isMidMessage: whether the handler has a message in progress after this read.
    private func watchMessage(isMidMessage: Bool, received count: Int, on connection: Connection) {
        guard self.settings.minimumDataRate.bytesPerSecond > 0, isMidMessage else {
            if self.inputWatch != nil {
                self.inputWatch = nil
                connection.cancelTimer()
            }
            return
        }
        if self.inputWatch == nil {
            self.inputWatch = DataRateWatch(start: MonotonicClock.now(), rate: self.settings.minimumDataRate)
            self.setTimer(.message, on: connection)
        } else {
            self.inputWatch?.add(count)
        }
    }

    func handle(_ message: any ConnectionMessage, on connection: Connection) {
        if let batch = message as? HTTPBatchReply {
            self.deliver(batch.replies, of: batch.batch, on: connection)
            batch.outstanding?.end()
        } else if let ordered = message as? HTTPBatchOrdered {
            self.batchOrdered(ordered.batch, on: connection)
        } else {
            message.discard()
        }
    }

    /// The node evicts the connection to protect its memory: a stream or an upgraded protocol says goodbye (SSE
    /// `cancel`, a WebSocket close frame); a plain HTTP connection has none to say.
    func evicted(_ connection: Connection, reason: ConnectionEviction) {
        switch self.phase {
        case .upgraded(let handler):
            handler.evicted(reason: reason)
        case .streaming:
            if case .stream(let session) = self.attachment { session.evicted(reason: reason) }
        case .reading, .awaitingReply, .closing:
            break
        }
    }

    /// The client read its answers down to the low-water mark: take its requests (or messages) again.
    func outputDrained(_ connection: Connection) {
        switch self.phase {
        case .reading:
            self.takeNextRequests(connection)
        case .upgraded:
            connection.resumeReading()
        case .awaitingReply, .streaming, .closing:
            break
        }
    }

    /// Idle connections close, streams end, upgraded connections get their goodbye (a WebSocket's 1001) flushed
    /// before they close; a request with the application finishes first.
    func reactorDraining(_ connection: Connection) {
        switch self.phase {
        case .reading where !self.inFlight.isEmpty:
            self.stopReadingAhead(connection)
        case .reading:
            connection.close()
        case .upgraded(let handler):
            handler.serverShuttingDown()
            connection.writer.close()
            connection.flush()
        case .streaming:
            connection.writer.close()
            connection.flush()
        case .awaitingReply, .closing:
            break
        }
    }

    /// Every request handler has returned, so a connection still waiting holds a request nobody took.
    func reactorFinishing(_ connection: Connection) {
        if case .awaitingReply = self.phase {
            connection.close()
        } else if !self.inFlight.isEmpty {
            connection.close()
        }
    }

    func connectionClosed(_ connection: Connection, error: IOError?) {
        self.application.connectionClosed(connection.id)
        let attachment = self.attachment
        self.attachment = nil
        switch attachment {
        case .stream(let session): session.connectionClosed()
        case .upgrade(let handler): handler.connectionClosed()
        case nil: break
        }
    }

    func setTimer(_ kind: TimerKind, on connection: Connection) {
        self.timerKind = kind
        self.idleSince = kind == .idle && self.isReading && self.pendingHead == nil ? MonotonicClock.now() : nil
        switch kind {
        case .head: connection.setTimer(after: self.settings.headerTimeout)
        case .idle: connection.setTimer(after: self.settings.idleTimeout)
        case .body, .message:
            connection.setTimer(after: self.inputWatch?.checkInterval ?? self.settings.minimumDataRate.checkInterval)
        }
    }
}
