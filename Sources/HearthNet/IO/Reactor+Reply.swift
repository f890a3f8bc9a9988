/// Turning the application's `HTTPReply` into bytes and connection state, on the reactor thread.
extension Reactor {
    /// Sends `reply` on the connection that is waiting for it; a reply for a connection that has gone is released.
    func deliver(_ reply: HTTPReply, to connectionID: UInt64) {
        guard let connection = self.connections[connectionID], case .awaitingReply(let head) = connection.phase else {
            ReactorInbox.release(.reply(connectionID: connectionID, reply))
            return
        }
        let mustClose = !head.isKeepAlive || self.isDraining || connection.isPeerClosed
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
            connection.writer.enqueueUnbounded(
                HTTPResponseEncoder.encodeHead(status: response.status, headers: response.headers)
            )
            connection.writer.setChunked(isChunked)
            connection.attachment = .stream(session)
            connection.phase = .streaming
            connection.deadline = nil
            session.start(connection.writer)
            if self.isDraining { connection.writer.close() }
            self.flush(connection)
            self.readAvailable(connection)
        case .upgrade(let response, let handler):
            connection.writer.enqueueUnbounded(
                HTTPResponseEncoder.encodeHead(status: response.status, headers: response.headers)
            )
            connection.attachment = .upgrade(handler)
            connection.phase = .upgraded(handler)
            connection.deadline = nil
            handler.start(connection.writer)
            let buffered = connection.parser.takeBufferedBytes()
            if !buffered.isEmpty, self.isOpen(connection) { handler.received(buffered) }
            self.flush(connection)
            self.readAvailable(connection)
        }
    }

    private func send(_ response: HTTPResponse, for head: HTTPRequestHead, on connection: Connection, mustClose: Bool) {
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
        connection.writer.enqueueUnbounded(bytes)
        guard !closes else {
            self.closeAfterFlush(connection)
            return
        }
        connection.phase = .reading
        self.flush(connection)
        guard self.isOpen(connection) else { return }
        if connection.parser.isIdle {
            self.setDeadline(connection, .idle, after: self.settings.idleTimeout)
        } else {
            self.setDeadline(connection, .head, after: self.settings.headerTimeout)
        }
        // Pipelined requests already buffered come first; then whatever arrived while the handler ran.
        self.processRequests(connection)
        if self.isOpen(connection), connection.isReading { self.readAvailable(connection) }
    }
}
