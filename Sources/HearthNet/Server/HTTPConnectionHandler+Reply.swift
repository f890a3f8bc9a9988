/// Turning the application's `HTTPReply` into bytes and connection state, on the reactor thread.
extension HTTPConnectionHandler {
    /// Takes the replies to batch `number` and sends, in order, those of every batch whose turn has come: a batch's
    /// replies wait until every batch before it is answered. Replies the connection is not waiting for are
    /// discarded. A batch answered while later ones are still out is all plain responses
    /// (`HTTPRequestHandler.sharesBatches`); the last one's last reply decides what the connection does next.
    func deliver(_ replies: [HTTPReply], of number: UInt64, on connection: Connection) {
        guard self.isReading || self.isAwaitingReply,
            let position = self.inFlight.firstIndex(where: { $0.number == number }),
            self.inFlight[position].framings.count == replies.count, self.inFlight[position].replies == nil
        else {
            for reply in replies { reply.discard() }
            return
        }
        guard self.inFlight.count > 1 else {
            // The only batch out (as every request taken alone is): its replies go out as they came, not held in the
            // list and copied out again.
            let batch = self.inFlight.removeLast()
            self.deliverLast(replies, for: batch.framings, on: connection)
            return
        }
        self.inFlight[position].replies = replies
        while let oldest = self.inFlight.first, let ready = oldest.replies {
            self.inFlight.removeFirst()
            guard !self.inFlight.isEmpty else {
                self.deliverLast(ready, for: oldest.framings, on: connection)
                return
            }
            guard self.enqueueAll(ready, for: oldest.framings, on: connection) else {
                for batch in self.inFlight { batch.replies?.forEach { $0.discard() } }
                self.inFlight = []
                self.heldRequest = nil
                self.closeAfterFlush(connection)
                return
            }
            connection.flush()
        }
        self.readAhead(connection)
    }

    /// Whether the connection is waiting for the application's replies with reading paused.
    var isAwaitingReply: Bool {
        if case .awaitingReply = self.phase { return true }
        return false
    }

    /// Queues the plain responses of a batch's requests but its last; false (having discarded the rest) when one
    /// streams, upgrades or closes, which ends the exchange: nothing after it is sent.
    private func enqueueAll(
        _ replies: [HTTPReply], for framings: some Collection<HTTPAnswerFraming>, on connection: Connection
    ) -> Bool {
        for (index, (framing, reply)) in zip(framings, replies).enumerated() {
            guard self.enqueueAnswer(reply, for: framing, on: connection) else {
                reply.discard()
                for later in replies.dropFirst(index + 1) { later.discard() }
                return false
            }
        }
        return true
    }

    /// Sends the replies of the last batch out (every request but the last is a plain response); the last one
    /// decides what the connection does next, unless an error answer waits behind the batch (`heldAnswer`), which
    /// is then sent and closes it.
    private func deliverLast(_ replies: [HTTPReply], for framings: [HTTPAnswerFraming], on connection: Connection) {
        guard let lastFraming = framings.last, let lastReply = replies.last else { return }
        guard
            replies.count == 1
                || self.enqueueAll(Array(replies.dropLast()), for: framings.dropLast(), on: connection)
        else {
            lastReply.discard()
            self.heldRequest = nil
            self.closeAfterFlush(connection)
            return
        }
        if let answer = self.heldAnswer {
            self.heldAnswer = nil
            self.heldRequest = nil
            if self.enqueueAnswer(lastReply, for: lastFraming, on: connection) {
                self.answerAndClose(connection, with: answer)
            } else {
                lastReply.discard()
                self.closeAfterFlush(connection)
            }
            return
        }
        self.deliver(lastReply, for: lastFraming, on: connection)
    }

    /// Sends `reply`, the answer to the last request the connection waited for, and goes on from it.
    private func deliver(_ reply: HTTPReply, for framing: HTTPAnswerFraming, on connection: Connection) {
        let mustClose = !framing.isKeepAlive || connection.isReactorDraining || connection.isPeerClosed
        switch reply {
        case .response, .encoded:
            self.send(reply, for: framing, on: connection, mustClose: mustClose)
        case .stream(var response, let session):
            let isChunked = !framing.isHTTP10
            response.headers.remove("Content-Length")
            if isChunked {
                response.headers.replaceOrAdd("Transfer-Encoding", "chunked")
            } else {
                response.headers.remove("Transfer-Encoding")
            }
            response.headers.replaceOrAdd("Connection", "close")
            connection.enqueue(HTTPResponseEncoder.encodeHead(status: response.status, headers: response.headers))
            if isChunked { connection.writer.setFraming(HTTPChunkedFraming()) }
            self.attachment = .stream(session)
            self.phase = .streaming
            connection.cancelTimer()
            session.start(connection.writer)
            if connection.isReactorDraining { connection.writer.close() }
            connection.flush()
            connection.resumeReading()
        case .upgrade(let response, let handler):
            connection.enqueue(HTTPResponseEncoder.encodeHead(status: response.status, headers: response.headers))
            self.attachment = .upgrade(handler)
            self.phase = .upgraded(handler)
            connection.cancelTimer()
            handler.start(connection.writer)
            let buffered = self.parser.takeBufferedBytes()
            if !buffered.isEmpty, !connection.isClosed { buffered.withUnsafeBytes { handler.received($0) } }
            connection.flush()
            connection.resumeReading()
        }
    }

    /// Sends a plain answer (`.response` or `.encoded`) and goes on reading, or closes when it says so.
    private func send(
        _ reply: HTTPReply, for framing: HTTPAnswerFraming, on connection: Connection, mustClose: Bool
    ) {
        let closes = !self.enqueueAnswer(reply, for: framing, on: connection, mustClose: mustClose)
        guard !closes else {
            self.closeAfterFlush(connection)
            return
        }
        self.phase = .reading
        connection.flush()
        guard !connection.isClosed else { return }
        guard connection.queuedOutboundBytes <= Self.outputHighWater else {
            // The client is not reading its answers: take none of its pipelined requests until it does, so
            // answers never pile up for it. Reading stays paused; a client that reads nothing for the idle
            // timeout is closed.
            self.setTimer(.idle, on: connection)
            connection.notifyWhenOutputDrains(to: Self.outputLowWater)
            return
        }
        self.takeNextRequests(connection)
    }

    /// Queues a plain answer framed by `framing`; false when it says `Connection: close` (it must be the last
    /// answer), or when `reply` is not a plain answer (a stream or an upgrade), which queues nothing.
    func enqueueAnswer(
        _ reply: HTTPReply, for framing: HTTPAnswerFraming, on connection: Connection, mustClose: Bool = false
    ) -> Bool {
        switch reply {
        case .response(let response): self.enqueue(response, for: framing, on: connection, mustClose: mustClose)
        case .encoded(let encoded): self.enqueue(encoded, for: framing, on: connection, mustClose: mustClose)
        case .stream, .upgrade: false
        }
    }

    /// Queues an answer written ahead (`HTTPEncodedResponse`) as it is when the request is framed as it was written
    /// for (HTTP/1.1, not `HEAD`, the connection kept open); otherwise frames its `response` as any other.
    private func enqueue(
        _ encoded: HTTPEncodedResponse, for framing: HTTPAnswerFraming, on connection: Connection, mustClose: Bool
    ) -> Bool {
        guard !mustClose, !framing.isHTTP10, !framing.omitsBody else {
            return self.enqueue(encoded.response, for: framing, on: connection, mustClose: mustClose)
        }
        connection.enqueue(encoded.bytes)
        return true
    }

    /// Queues `response`, framed by `framing`; returns false when it says `Connection: close` (it must be the last
    /// answer).
    func enqueue(
        _ response: HTTPResponse, for framing: HTTPAnswerFraming, on connection: Connection, mustClose: Bool = false
    ) -> Bool {
        let forbidsBody = HTTPResponseEncoder.forbidsBody(response.status)
        let omitsBody = forbidsBody || framing.omitsBody
        let closes = mustClose || response.headers.containsToken("close", in: "Connection")
        let fields = HTTPResponseEncoder.Framing(
            contentLength: forbidsBody ? nil : response.body.count,
            connection: closes ? "close" : (framing.isHTTP10 ? "keep-alive" : nil))
        var bytes = HTTPResponseEncoder.encodeHead(
            status: response.status, headers: response.headers, framing: fields,
            reserving: omitsBody ? 0 : response.body.count)
        if !omitsBody { bytes.append(contentsOf: response.body) }
        connection.enqueue(bytes)
        return !closes
    }

    /// The reading phase after a reply: the next request's timer, then pipelined requests already buffered, then
    /// whatever arrived while the handler ran. A request whose head came in behind the batch just answered has its
    /// body timed, and its `100 Continue` sent, from now.
    func takeNextRequests(_ connection: Connection) {
        if let head = self.pendingHead {
            self.startBody(awaitingContinue: Self.awaitsContinue(head), on: connection)
        } else {
            self.setTimer(self.parser.isIdle ? .idle : .head, on: connection)
        }
        self.processRequests(connection)
        connection.writer.setInboundHeld(self.parser.heldByteCount)
        if !connection.isClosed, self.isReading { connection.resumeReading() }
    }
}

/// The replies to a batch of pipelined requests (or to one request), in the requests' order, travel together to
/// their connection's handler through the reactor's inbox.
struct HTTPBatchReply: ConnectionMessage {
    /// The batch's number on its connection (`ReactorRequest.batch`).
    let batch: UInt64
    let replies: [HTTPReply]
    /// For a batch taken at once (`takeAtOnce`): the count the server waits for at shutdown, which the batch leaves
    /// once its replies reached the handler (`HTTPConnectionHandler.handle`) or were discarded, on the reactor —
    /// so the thread that answers hands over one message per batch and nothing else.
    var outstanding: OutstandingReplies?

    func discard() {
        for reply in self.replies { reply.discard() }
        self.outstanding?.end()
    }
}

/// The application put every request of a batch in order (`HTTPRequestHandler.handle(batch:ordered:)`): its
/// connection may take the requests behind it before it is answered.
struct HTTPBatchOrdered: ConnectionMessage {
    /// The batch's number on its connection (`ReactorRequest.batch`).
    let batch: UInt64

    func discard() {}
}

/// A reply can be discarded like a message to a connection that is gone.
extension HTTPReply: ConnectionMessage {
    /// A reply that can never be sent still keeps its promise: a stream session or upgrade handler hears that its
    /// connection closed.
    package func discard() {
        switch self {
        case .stream(_, let session): session.connectionClosed()
        case .upgrade(_, let handler): handler.connectionClosed()
        case .response, .encoded: break
        }
    }
}
