import HearthSystem

/// Turning parsed bytes into requests for the application, and protocol errors into error responses.
extension HTTPConnectionHandler {
    /// Drives the parser while the connection is reading; dispatches at most one batch: a request, with the
    /// pipelined requests already read behind it while each one before shares batches.
    func processRequests(_ connection: Connection) {
        var batch = HTTPRequestBatch()
        while !connection.isClosed, self.isReading {
            switch self.parser.next() {
            case .needMoreData:
                self.dispatch(batch, on: connection)
                return
            case .head(let head):
                guard !connection.isReactorDraining else {
                    // A batch ahead of it is still answered; its last answer closes the draining connection.
                    if batch.isEmpty { connection.close() } else { self.dispatch(batch, on: connection) }
                    return
                }
                let limit: Int
                switch self.application.admitBody(
                    method: head.method, path: head.path, query: head.query, headers: head.headers)
                {
                case .read(let maximumBytes): limit = maximumBytes
                case .refuse(let response):
                    self.answerAndClose(connection, with: response, after: batch)
                    return
                }
                if let error = self.parser.acceptBody(limit: limit) {
                    self.answerAndClose(connection, with: Self.errorResponse(error), after: batch)
                    return
                }
                self.pendingHead = head
                if !batch.isEmpty, Self.awaitsContinue(head) {
                    // Its body is read once the batch ahead of it is answered (`takeNextRequests`); a `100 Continue`
                    // now would reach the client before those answers.
                    self.dispatch(batch, on: connection)
                    return
                }
                self.startBody(of: head, on: connection)
            case .body(let body):
                guard let head = self.pendingHead else {
                    preconditionFailure("request body without a head in phase \(self.phase)")
                }
                self.pendingHead = nil
                self.inputWatch = nil
                let request = head.makeRequest(
                    body: body, remoteAddress: connection.remoteAddress, connectionID: connection.id)
                batch.append(head, request)
                guard batch.admitsMore(after: head, application: self.application) else {
                    self.dispatch(batch, on: connection)
                    return
                }
            case .failure(let error):
                self.answerAndClose(connection, with: Self.errorResponse(error), after: batch)
                return
            }
        }
    }

    /// Times the body of `head` and sends its `100 Continue` when the client waits for one.
    func startBody(of head: HTTPRequestHead, on connection: Connection) {
        self.inputWatch = DataRateWatch(
            start: MonotonicClock.now(), rate: self.settings.minimumDataRate, deadline: self.settings.bodyDeadline)
        self.setTimer(.body, on: connection)
        if Self.awaitsContinue(head) {
            connection.enqueue(HTTPResponseEncoder.continueHead)
            connection.flush()
        }
    }

    /// Whether the client waits for `100 Continue` before it sends a body.
    private static func awaitsContinue(_ head: HTTPRequestHead) -> Bool {
        head.expectsContinue && head.framing != .none && head.framing != .length(0)
    }

    /// Hands `batch`'s requests to the application (nothing when it is empty) and pauses reading until they are
    /// answered.
    private func dispatch(_ batch: HTTPRequestBatch, on connection: Connection) {
        guard !batch.isEmpty else { return }
        self.phase = .awaitingReply(batch.heads)
        connection.cancelTimer()
        connection.pauseReading()
        if case .terminated = self.requests.yield(ReactorRequest(connectionID: connection.id, requests: batch.requests))
        {
            connection.close()
        }
    }

    /// Answers with `answer` and closes: at once, or, behind a batch, once the batch is answered.
    private func answerAndClose(_ connection: Connection, with answer: HTTPResponse, after batch: HTTPRequestBatch) {
        guard !batch.isEmpty else {
            self.answerAndClose(connection, with: answer)
            return
        }
        self.pendingHead = nil
        self.heldAnswer = answer
        self.dispatch(batch, on: connection)
    }

    /// Firebase's JSON error body for a protocol error.
    static func errorResponse(_ error: HTTPParserError) -> HTTPResponse {
        HTTPResponse.jsonError(status: error.status, message: error.message)
    }

    /// Answers a protocol error with Firebase's JSON error body, then closes.
    func respond(to connection: Connection, with error: HTTPParserError) {
        self.answerAndClose(connection, with: Self.errorResponse(error))
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
