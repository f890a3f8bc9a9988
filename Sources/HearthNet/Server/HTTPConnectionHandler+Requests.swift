import HearthSystem

/// Turning parsed bytes into requests for the application, and protocol errors into error responses.
extension HTTPConnectionHandler {
    /// Drives the parser while the connection is reading; dispatches at most one request.
    func processRequests(_ connection: Connection) {
        while !connection.isClosed, self.isReading {
            switch self.parser.next() {
            case .needMoreData:
                return
            case .head(let head):
                guard !connection.isReactorDraining else {
                    connection.close()
                    return
                }
                let limit: Int
                switch self.application.admitBody(
                    method: head.method, path: head.path, query: head.query, headers: head.headers)
                {
                case .read(let maximumBytes): limit = maximumBytes
                case .refuse(let response):
                    self.answerAndClose(connection, with: response)
                    return
                }
                if let error = self.parser.acceptBody(limit: limit) {
                    self.respond(to: connection, with: error)
                    return
                }
                self.pendingHead = head
                self.inputWatch = DataRateWatch(
                    start: MonotonicClock.now(), rate: self.settings.minimumDataRate,
                    deadline: self.settings.bodyDeadline)
                self.setTimer(.body, on: connection)
                if head.expectsContinue, head.framing != .none, head.framing != .length(0) {
                    connection.enqueue(HTTPResponseEncoder.continueHead)
                    connection.flush()
                }
            case .body(let body):
                guard let head = self.pendingHead else {
                    preconditionFailure("request body without a head in phase \(self.phase)")
                }
                self.pendingHead = nil
                self.inputWatch = nil
                self.phase = .awaitingReply(head)
                connection.cancelTimer()
                connection.pauseReading()
                let request = head.makeRequest(
                    body: body, remoteAddress: connection.remoteAddress, connectionID: connection.id)
                if case .terminated = self.requests.yield(ReactorRequest(connectionID: connection.id, request: request))
                {
                    connection.close()
                }
                return
            case .failure(let error):
                self.respond(to: connection, with: error)
                return
            }
        }
    }

    /// Answers a protocol error with Firebase's JSON error body, then closes.
    func respond(to connection: Connection, with error: HTTPParserError) {
        self.answerAndClose(connection, with: HTTPResponse.jsonError(status: error.status, message: error.message))
    }

    /// Sends `response` with `Connection: close` and closes once it is sent, reading nothing more: a body the
    /// client is still sending is never read.
    func answerAndClose(_ connection: Connection, with answer: HTTPResponse) {
        var response = answer
        response.headers.add("Content-Length", String(response.body.count))
        response.headers.add("Connection", "close")
        var bytes = HTTPResponseEncoder.encodeHead(status: response.status, headers: response.headers)
        bytes.append(contentsOf: response.body)
        self.pendingHead = nil
        connection.enqueue(bytes)
        self.closeAfterFlush(connection)
    }

    /// Stops accepting writes, sends what is queued, then closes.
    func closeAfterFlush(_ connection: Connection) {
        self.phase = .closing
        connection.closeAfterFlush()
    }
}
