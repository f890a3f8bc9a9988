import Synchronization

/// Per-connection I/O on the reactor thread: reading and parsing, flushing the outbound queue, and closing.
extension Reactor {
    private enum FlushStep {
        case send([UInt8], offset: Int)
        case overflowed
        case closeRequested
        case drained
    }

    func isOpen(_ connection: Connection) -> Bool {
        self.connections[connection.id] != nil
    }

    /// Reads until `EAGAIN` (edge-triggered), unless the connection is waiting on the application.
    func readAvailable(_ connection: Connection) {
        while self.isOpen(connection) {
            if case .awaitingReply = connection.phase { return }
            let result: Syscall.Result
            do {
                result = try Socket.receive(connection.descriptor, into: self.readBuffer)
            } catch {
                self.close(connection)
                return
            }
            switch result {
            case .wouldBlock:
                return
            case .done(0):
                self.peerClosed(connection)
                return
            case .done(let count):
                self.counters.bytesRead.add(UInt64(count), ordering: .relaxed)
                self.received(UnsafeRawBufferPointer(rebasing: self.readBuffer[0..<count]), on: connection)
            }
        }
    }

    private func received(_ bytes: UnsafeRawBufferPointer, on connection: Connection) {
        switch connection.phase {
        case .reading:
            if connection.pendingHead != nil {
                self.setDeadline(connection, .body, after: self.settings.idleTimeout)
            } else if connection.deadlineKind == .idle {
                self.setDeadline(connection, .head, after: self.settings.headerTimeout)
            }
            connection.parser.append(bytes)
            self.processRequests(connection)
        case .upgraded(let handler):
            handler.received(Array(bytes))
        case .streaming, .closing, .lingering:
            break
        case .awaitingReply:
            preconditionFailure("bytes read while awaiting a reply in state \(connection.phase)")
        }
    }

    private func peerClosed(_ connection: Connection) {
        switch connection.phase {
        case .closing:
            connection.isPeerClosed = true
        case .awaitingReply:
            connection.isPeerClosed = true
        case .reading, .streaming, .upgraded, .lingering:
            self.close(connection)
        }
    }

    /// Drives the parser while the connection is reading; dispatches at most one request.
    func processRequests(_ connection: Connection) {
        while self.isOpen(connection), connection.isReading {
            switch connection.parser.next() {
            case .needMoreData:
                return
            case .head(let head):
                guard !self.isDraining else {
                    self.close(connection)
                    return
                }
                let limit = self.handler.maximumBodyBytes(
                    method: head.method,
                    path: head.path,
                    query: head.query,
                    headers: head.headers
                )
                if let error = connection.parser.acceptBody(limit: limit) {
                    self.respond(to: connection, with: error)
                    return
                }
                connection.pendingHead = head
                self.setDeadline(connection, .body, after: self.settings.idleTimeout)
                if head.expectsContinue, head.framing != .none, head.framing != .length(0) {
                    connection.writer.enqueueUnbounded(HTTPResponseEncoder.continueHead)
                    self.flush(connection)
                }
            case .body(let body):
                guard let head = connection.pendingHead else {
                    preconditionFailure("request body without a head in state \(connection.phase)")
                }
                connection.pendingHead = nil
                connection.phase = .awaitingReply(head)
                connection.deadline = nil
                let request = head.makeRequest(body: body, remoteAddress: connection.remoteAddress)
                if case .terminated = self.requests.yield(ReactorRequest(connectionID: connection.id, request: request))
                {
                    self.close(connection)
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
        var response = HTTPResponse.jsonError(status: error.status, message: error.message)
        response.headers.add("Content-Length", String(response.body.count))
        response.headers.add("Connection", "close")
        var bytes = HTTPResponseEncoder.encodeHead(status: response.status, headers: response.headers)
        bytes.append(contentsOf: response.body)
        connection.pendingHead = nil
        connection.writer.enqueueUnbounded(bytes)
        self.closeAfterFlush(connection)
    }

    /// Stops accepting writes, sends what is queued, then closes.
    func closeAfterFlush(_ connection: Connection) {
        connection.phase = .closing
        connection.writer.requestClose()
        self.setDeadline(connection, .close, after: Self.closeTimeout)
        self.flush(connection)
    }

    /// Writes queued bytes until `EAGAIN` or the queue is empty; completes a requested close.
    func flush(_ connection: Connection) {
        while self.isOpen(connection) {
            let step: FlushStep = connection.writer.queue.withLock { queue in
                queue.isFlushScheduled = false
                if queue.hasOverflowed { return .overflowed }
                if let front = queue.front { return .send(front.chunk, offset: front.offset) }
                return queue.isCloseRequested ? .closeRequested : .drained
            }
            switch step {
            case .drained:
                return
            case .overflowed:
                self.close(connection)
                return
            case .closeRequested:
                self.finishClose(connection)
                return
            case .send(let chunk, let offset):
                let result: Syscall.Result
                do {
                    result = try chunk.withUnsafeBytes { bytes throws(IOError) in
                        try Socket.send(connection.descriptor, UnsafeRawBufferPointer(rebasing: bytes[offset...]))
                    }
                } catch {
                    self.close(connection)
                    return
                }
                guard case .done(let written) = result else { return }
                self.counters.bytesWritten.add(UInt64(written), ordering: .relaxed)
                connection.writer.queue.withLock { $0.consume(written) }
            }
        }
    }

    /// Everything is sent: shut down our side and linger briefly for the peer's FIN, so a reset caused by unread
    /// request bytes cannot destroy the response on its way.
    private func finishClose(_ connection: Connection) {
        if case .lingering = connection.phase { return }
        guard !connection.isPeerClosed else {
            self.close(connection)
            return
        }
        Socket.shutdownWrite(connection.descriptor)
        connection.phase = .lingering
        self.setDeadline(connection, .close, after: Self.closeTimeout)
        self.readAvailable(connection)
    }

    /// Closes the socket now and tells any stream session or upgrade handler, exactly once.
    func close(_ connection: Connection) {
        guard self.connections.removeValue(forKey: connection.id) != nil else { return }
        Syscall.close(connection.descriptor)
        connection.writer.markClosed()
        connection.deadline = nil
        self.counters.openConnections.subtract(1, ordering: .relaxed)
        self.connectionClosed()
        let attachment = connection.attachment
        connection.attachment = nil
        switch attachment {
        case .stream(let session): session.connectionClosed()
        case .upgrade(let handler): handler.connectionClosed()
        case nil: break
        }
    }
}
