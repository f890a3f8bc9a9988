/// Turning the application's `HTTPReply` into bytes and connection state, on the reactor thread.
extension HTTPConnectionHandler {
    /// Sends the replies to the requests the connection is waiting for, in order (one reply, or a batch's);
    /// replies it is not waiting for are discarded. Every reply but the last is a plain response
    /// (`HTTPRequestHandler.sharesBatches`); the last one decides what the connection does next, unless an error
    /// answer waits behind the batch (`heldAnswer`), which is then sent and closes it.
    func deliver(_ replies: [HTTPReply], on connection: Connection) {
        guard case .awaitingReply(let heads) = self.phase, heads.count == replies.count, let lastHead = heads.last,
            let lastReply = replies.last
        else {
            for reply in replies { reply.discard() }
            return
        }
        for (index, (head, reply)) in zip(heads.dropLast(), replies.dropLast()).enumerated() {
            guard case .response(let response) = reply, self.enqueue(response, for: head, on: connection) else {
                // A batch's member that streams, upgrades or closes ends the exchange: nothing after it is sent.
                reply.discard()
                for later in replies.dropFirst(index + 1) { later.discard() }
                self.closeAfterFlush(connection)
                return
            }
        }
        if let answer = self.heldAnswer {
            self.heldAnswer = nil
            if case .response(let response) = lastReply, self.enqueue(response, for: lastHead, on: connection) {
                self.answerAndClose(connection, with: answer)
            } else {
                lastReply.discard()
                self.closeAfterFlush(connection)
            }
            return
        }
        self.deliver(lastReply, for: lastHead, on: connection)
    }

    /// Sends `reply`, the answer to the last request the connection waited for, and goes on from it.
    private func deliver(_ reply: HTTPReply, for head: HTTPRequestHead, on connection: Connection) {
        let mustClose = !head.isKeepAlive || connection.isReactorDraining || connection.isPeerClosed
        switch reply {
        case .response(let response):
            self.send(response, for: head, on: connection, mustClose: mustClose)
        case .stream(var response, let session):
            let isChunked = head.version == "HTTP/1.1"
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
            if !buffered.isEmpty, !connection.isClosed { handler.received(buffered) }
            connection.flush()
            connection.resumeReading()
        }
    }

    private func send(_ response: HTTPResponse, for head: HTTPRequestHead, on connection: Connection, mustClose: Bool) {
        let closes = !self.enqueue(response, for: head, on: connection, mustClose: mustClose)
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

    /// Queues `response` to `head`; returns false when it says `Connection: close` (it must be the last answer).
    func enqueue(
        _ response: HTTPResponse, for head: HTTPRequestHead, on connection: Connection, mustClose: Bool = false
    ) -> Bool {
        var response = response
        let forbidsBody = HTTPResponseEncoder.forbidsBody(response.status)
        let omitsBody = forbidsBody || head.method == "HEAD"
        if forbidsBody {
            response.headers.remove("Content-Length")
        } else {
            response.headers.replaceOrAdd("Content-Length", String(response.body.count))
        }
        response.headers.remove("Transfer-Encoding")
        let closes = mustClose || response.headers.containsToken("close", in: "Connection")
        if closes {
            response.headers.replaceOrAdd("Connection", "close")
        } else if head.version == "HTTP/1.0" {
            response.headers.replaceOrAdd("Connection", "keep-alive")
        }
        var bytes = HTTPResponseEncoder.encodeHead(
            status: response.status,
            headers: response.headers,
            reserving: omitsBody ? 0 : response.body.count
        )
        if !omitsBody { bytes.append(contentsOf: response.body) }
        connection.enqueue(bytes)
        return !closes
    }

    /// The reading phase after a reply: the next request's timer, then pipelined requests already buffered, then
    /// whatever arrived while the handler ran. A request whose head came in behind the batch just answered has its
    /// body timed, and its `100 Continue` sent, from now.
    func takeNextRequests(_ connection: Connection) {
        if let head = self.pendingHead {
            self.startBody(of: head, on: connection)
        } else {
            self.setTimer(self.parser.isIdle ? .idle : .head, on: connection)
        }
        self.processRequests(connection)
        connection.writer.setInboundHeld(self.parser.heldByteCount)
        if !connection.isClosed, self.isReading { connection.resumeReading() }
    }
}

/// The replies to a batch of pipelined requests, in the requests' order, travel together to their connection's
/// handler through the reactor's inbox.
struct HTTPBatchReply: ConnectionMessage {
    let replies: [HTTPReply]

    func discard() {
        for reply in self.replies { reply.discard() }
    }
}

/// An `HTTPReply` travels to its connection's handler through the reactor's inbox.
extension HTTPReply: ConnectionMessage {
    /// A reply that can never be sent still keeps its promise: a stream session or upgrade handler hears that its
    /// connection closed.
    package func discard() {
        switch self {
        case .stream(_, let session): session.connectionClosed()
        case .upgrade(_, let handler): handler.connectionClosed()
        case .response: break
        }
    }
}
