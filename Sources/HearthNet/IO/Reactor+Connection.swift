import CHearthSystem
import Glibc
import HearthSystem
import Synchronization

/// Per-connection I/O on the reactor thread: reading into the handler, flushing the outbound queue, and closing.
extension Reactor {
    private enum FlushStep {
        case send([UInt8], offset: Int)
        /// The first `count` bytes of the reactor's write buffer, gathered from several small chunks.
        case sendGathered(count: Int)
        case overflowed
        case closeRequested
        case drained
    }

    /// Reads until `EAGAIN` (edge-triggered), unless the handler paused reading.
    /// - Parameter stopsAtShortRead: also stop after a read that did not fill the buffer, which emptied the socket:
    ///   bytes arriving after it raise a new edge, so the `recv` that would only say `EAGAIN` is saved (one system
    ///   call per message a client sends and waits on). Only for an edge that reported no hang-up or error, which
    ///   must be read through to the end of the stream.
    func readAvailable(_ connection: Connection, stopsAtShortRead: Bool = false) {
        while !connection.isClosed {
            if connection.isReadPaused { return }
            let result: Syscall.Result
            do {
                result = try Socket.receive(connection.descriptor, into: self.readBuffer)
            } catch {
                self.close(connection, error: Self.transferError(error, on: connection))
                return
            }
            switch result {
            case .wouldBlock:
                connection.mayHaveUnreadInput = false
                return
            case .done(0):
                self.peerClosed(connection)
                return
            case .done(let count):
                self.counters.bytesRead.add(UInt64(count), ordering: .relaxed)
                let emptied = stopsAtShortRead && count < self.readBuffer.count
                if emptied { connection.mayHaveUnreadInput = false }
                if connection.state == .active, let handler = connection.handler {
                    handler.received(UnsafeRawBufferPointer(rebasing: self.readBuffer[0..<count]), on: connection)
                }
                if emptied { return }
            }
        }
    }

    private func peerClosed(_ connection: Connection) {
        connection.isPeerClosed = true
        switch connection.state {
        case .active:
            connection.handler?.peerClosed(connection)
        case .closing:
            break
        case .connecting, .lingering, .closed:
            self.close(connection)
        }
    }

    /// Stops accepting writes, sends what is queued, then closes.
    func closeAfterFlush(_ connection: Connection) {
        guard connection.state == .active else { return }
        connection.state = .closing
        connection.isReadPaused = false
        connection.writer.requestClose()
        self.setDeadline(connection, .close, after: Self.closeTimeout)
        self.flush(connection)
    }

    /// Writes queued bytes until `EAGAIN` or the queue is empty; completes a requested close.
    func flush(_ connection: Connection) {
        var written = 0
        while !connection.isClosed {
            let step = Self.nextStep(connection.writer, gather: self.writeBuffer, afterWriting: written)
            written = 0
            switch step {
            case .drained:
                self.noticeDrained(connection)
                return
            case .overflowed:
                self.close(connection, error: Self.overflow(connection, limit: self.settings.outboundBufferLimit))
                return
            case .closeRequested:
                self.finishClose(connection)
                return
            case .send, .sendGathered:
                switch Self.perform(step, on: connection.descriptor, gather: self.writeBuffer) {
                case .success(.done(let count)):
                    self.counters.bytesWritten.add(UInt64(count), ordering: .relaxed)
                    written = count
                case .success(.wouldBlock):
                    self.noticeDrained(connection)
                    return
                case .failure(let error):
                    self.close(connection, error: Self.transferError(error, on: connection))
                    return
                }
            }
        }
    }

    /// Sends what `writer` has queued until the socket would block or the queue holds no more bytes to send,
    /// touching nothing but the socket, the writer and the counters, so it may run on a send helper's thread while
    /// the reactor sends to other connections (`Reactor+ParallelFlush.swift`). Whatever else a flush does — telling the handler, closing
    /// after a failure or an overflow, finishing a requested close — is left to the reactor's own `flush` after.
    static func sendQueued(
        descriptor: Int32, writer: ConnectionWriter, gather: UnsafeMutableRawBufferPointer, counters: NetworkCounters
    ) {
        var written = 0
        while true {
            let step = Self.nextStep(writer, gather: gather, afterWriting: written)
            guard case .success(.done(let count)) = Self.perform(step, on: descriptor, gather: gather) else {
                return
            }
            counters.bytesWritten.add(UInt64(count), ordering: .relaxed)
            written = count
        }
    }

    /// What the front of `writer`'s queue asks for next, once the `written` bytes of the last send are dropped
    /// from it. Many small events (one per listener push) are gathered into `gather` to go out in one send, as
    /// Redis writes a client's output buffer once per event-loop turn; a large chunk is sent from where it lies.
    private static func nextStep(
        _ writer: ConnectionWriter, gather: UnsafeMutableRawBufferPointer, afterWriting written: Int
    ) -> FlushStep {
        writer.consumed(written) { queue in
            queue.isFlushScheduled = false
            if queue.hasOverflowed { return .overflowed }
            if queue.isFrontFragmented { return .sendGathered(count: queue.copyFront(into: gather)) }
            if let front = queue.front { return .send(front.chunk, offset: front.offset) }
            return queue.isCloseRequested ? .closeRequested : .drained
        }
    }

    /// The `send` a step asks for; a step with nothing to send answers `wouldBlock`, as a full socket would.
    private static func perform(
        _ step: FlushStep, on descriptor: Int32, gather: UnsafeMutableRawBufferPointer
    ) -> Result<Syscall.Result, IOError> {
        switch step {
        case .send(let chunk, let offset):
            chunk.withUnsafeBytes { bytes in
                Result { () throws(IOError) in
                    try Socket.send(descriptor, UnsafeRawBufferPointer(rebasing: bytes[offset...]))
                }
            }
        case .sendGathered(let count):
            Result { () throws(IOError) in
                try Socket.send(descriptor, UnsafeRawBufferPointer(rebasing: gather[0..<count]))
            }
        case .overflowed, .closeRequested, .drained:
            .success(.wouldBlock)
        }
    }

    /// Tells the handler its outbound queue has drained to the mark it asked for, once.
    private func noticeDrained(_ connection: Connection) {
        guard let mark = connection.drainMark, connection.state == .active, connection.queuedOutboundBytes <= mark
        else { return }
        connection.drainMark = nil
        connection.handler?.outputDrained(connection)
    }

    /// Everything is sent: shut down our side and linger briefly for the peer's FIN, so a reset caused by unread
    /// inbound bytes cannot destroy the last bytes on their way.
    private func finishClose(_ connection: Connection) {
        if connection.state == .lingering { return }
        guard !connection.isPeerClosed else {
            self.close(connection)
            return
        }
        Socket.shutdownWrite(connection.descriptor)
        connection.state = .lingering
        connection.isReadPaused = false
        self.setDeadline(connection, .close, after: Self.closeTimeout)
        self.readAvailable(connection)
    }

    /// Closes the socket now and tells the handler, exactly once: `connectFailed` for a dial that never connected,
    /// `connectionClosed` otherwise.
    func close(_ connection: Connection, error: IOError? = nil) {
        guard self.connections.removeValue(forKey: connection.id) != nil else { return }
        let wasConnecting = connection.state == .connecting
        connection.state = .closed
        Syscall.close(connection.descriptor)
        connection.writer.markClosed()
        connection.deadline = nil
        self.counters.openConnections.subtract(1, ordering: .relaxed)
        self.connectionClosed()
        let handler = connection.handler
        connection.handler = nil
        if wasConnecting {
            handler?.connectFailed(
                error ?? IOError(.cancelled, "The dial to \(connection.remoteAddress) was closed before it connected.")
            )
        } else {
            handler?.connectionClosed(connection, error: error)
        }
    }

    /// A read or write failure, worded for the peer: resets say so; anything else keeps the call's own message.
    private static func transferError(_ error: IOError, on connection: Connection) -> IOError {
        switch error.errorNumber {
        case ECONNRESET, EPIPE: Socket.connectError(to: connection.remoteAddress, error.errorNumber)
        default: error
        }
    }

    private static func overflow(_ connection: Connection, limit: Int) -> IOError {
        IOError(
            .outboundOverflow,
            "\(connection.remoteAddress) did not read fast enough: more than \(limit) bytes were queued for it, so "
                + "the connection was closed. Raise the outbound buffer limit or send less to slow peers."
        )
    }
}
