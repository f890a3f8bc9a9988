import HearthSystem

/// Turning parsed bytes into requests for the application, and protocol errors into error responses.
extension HTTPConnectionHandler {
    /// Drives the parser while the connection is reading; dispatches at most one batch: a request, with the
    /// pipelined requests already read behind it while each one before shares batches. Read behind batches still
    /// with the application (`inFlight`), only requests that share batches join one: anything else waits until
    /// every batch ahead of it is answered.
    func processRequests(_ connection: Connection) {
        var batch = HTTPRequestBatch()
        if let held = self.heldRequest {
            self.heldRequest = nil
            batch.append(held.framing, held.request)
            guard batch.admitsMore(after: held.framing) else {
                self.dispatch(batch, on: connection)
                return
            }
        }
        while !connection.isClosed, self.isReading {
            switch self.parser.next() {
            case .needMoreData:
                self.dispatch(batch, on: connection)
                return
            case .head(let head):
                guard !connection.isReactorDraining else {
                    // A batch ahead of it is still answered; its last answer closes the draining connection.
                    if !batch.isEmpty {
                        self.dispatch(batch, on: connection)
                    } else if self.inFlight.isEmpty {
                        connection.close()
                    } else {
                        self.stopReadingAhead(connection)
                    }
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
                let awaitsContinue = Self.awaitsContinue(head)
                // Moved into place (its last use), not copied.
                self.pendingHead = head
                if !batch.isEmpty || !self.inFlight.isEmpty, awaitsContinue {
                    // Its body is read once the batches ahead of it are answered (`takeNextRequests`); a
                    // `100 Continue` now would reach the client before those answers.
                    if batch.isEmpty { self.stopReadingAhead(connection) } else { self.dispatch(batch, on: connection) }
                    return
                }
                self.startBody(awaitingContinue: awaitsContinue, on: connection)
            case .body(let body):
                // Taken out, not copied: the request is made of its parts.
                guard let head = self.pendingHead.take() else {
                    preconditionFailure("request body without a head in phase \(self.phase)")
                }
                self.inputWatch = nil
                // The application is asked once whether the request shares batches: the batch, the connection's
                // read-ahead and the application's own handling of the batch all go by that answer.
                let sharesBatches = self.application.sharesBatches(
                    method: head.method, path: head.path, query: head.query, headers: head.headers)
                let framing = HTTPAnswerFraming(head, sharesBatches: sharesBatches)
                let request = head.makeRequest(
                    body: body, remoteAddress: connection.remoteAddress, connectionID: connection.id,
                    sharesBatches: sharesBatches)
                if !self.inFlight.isEmpty, !sharesBatches {
                    self.heldRequest = (framing, request)
                    if batch.isEmpty { self.stopReadingAhead(connection) } else { self.dispatch(batch, on: connection) }
                    return
                }
                batch.append(framing, request)
                guard batch.admitsMore(after: framing) else {
                    self.dispatch(batch, on: connection)
                    return
                }
            case .failure(let error):
                self.answerAndClose(connection, with: Self.errorResponse(error), after: batch)
                return
            }
        }
    }

    /// Times the body of the pending head and sends its `100 Continue` when the client waits for one
    /// (`awaitsContinue`).
    func startBody(awaitingContinue: Bool, on connection: Connection) {
        self.inputWatch = DataRateWatch(
            start: MonotonicClock.now(), rate: self.settings.minimumDataRate, deadline: self.settings.bodyDeadline)
        self.setTimer(.body, on: connection)
        if awaitingContinue {
            connection.enqueue(HTTPResponseEncoder.continueHead)
            connection.flush()
        }
    }

    /// Whether the client waits for `100 Continue` before it sends a body.
    static func awaitsContinue(_ head: HTTPRequestHead) -> Bool {
        head.expectsContinue && head.framing != .none && head.framing != .length(0)
    }

    /// Hands `batch`'s requests to the application (nothing when it is empty) and pauses reading until they are
    /// answered, or ordered (`batchOrdered`). When every batch ahead of it is ordered, the application is offered it
    /// here, on the reactor thread (`takeAtOnce`); else, or when it declines, it goes to the server's task group.
    private func dispatch(_ batch: HTTPRequestBatch, on connection: Connection) {
        guard !batch.isEmpty, let last = batch.framings.last else { return }
        let number = self.nextBatch
        self.nextBatch += 1
        let mayTakeAtOnce = self.inFlight.allSatisfy(\.isOrdered)
        self.inFlight.append(
            InFlightBatch(
                number: number, framings: batch.framings, admitsReadAhead: last.isKeepAlive && last.sharesBatches))
        self.stopReadingAhead(connection)
        if mayTakeAtOnce, self.takeAtOnce(batch.requests, number: number, on: connection) { return }
        let request = ReactorRequest(connectionID: connection.id, batch: number, requests: batch.requests)
        if case .terminated = self.requests.yield(request) { connection.close() }
    }

    /// Pauses reading until the batches with the application are answered (or the newest is ordered).
    func stopReadingAhead(_ connection: Connection) {
        self.phase = .awaitingReply
        connection.cancelTimer()
        connection.pauseReading()
    }

    /// The application ordered batch `number`: when it is the newest and admits it, the requests behind it are
    /// taken now, while it is answered.
    func batchOrdered(_ number: UInt64, on connection: Connection) {
        guard let position = self.inFlight.firstIndex(where: { $0.number == number }) else { return }
        self.inFlight[position].isOrdered = true
        self.readAhead(connection)
    }

    /// Takes the requests behind the batches with the application when the newest is ordered and admits it, the
    /// connection has room for another batch, and its client reads its answers.
    func readAhead(_ connection: Connection) {
        guard case .awaitingReply = self.phase, let newest = self.inFlight.last, newest.isOrdered,
            newest.admitsReadAhead, self.inFlight.count < Self.maximumBatchesInFlight, self.heldAnswer == nil,
            self.heldRequest == nil, !connection.isClosed, !connection.isReactorDraining, !connection.isPeerClosed,
            connection.queuedOutboundBytes <= Self.outputHighWater
        else { return }
        if let head = self.pendingHead {
            guard !Self.awaitsContinue(head) else { return }
            self.startBody(awaitingContinue: false, on: connection)
        }
        self.phase = .reading
        self.processRequests(connection)
        connection.writer.setInboundHeld(self.parser.heldByteCount)
        if !connection.isClosed, self.isReading { connection.resumeReading() }
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
    /// client is still sending is never read. Behind batches not yet answered, it waits for their answers.
    func answerAndClose(_ connection: Connection, with answer: HTTPResponse) {
        guard self.inFlight.isEmpty else {
            self.pendingHead = nil
            self.heldAnswer = answer
            self.stopReadingAhead(connection)
            return
        }
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
