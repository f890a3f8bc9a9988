import HearthSystem

/// One TCP connection as the reactor sees it, accepted or dialed: its socket, its outbound queue, the handler that
/// gives its bytes meaning, and where it is in its life.
///
/// Confined to the reactor thread: handlers act on it only from their `ConnectionHandler` calls. Other threads use
/// its `writer`, which is the one part that is shared.
package final class Connection {
    /// Where the connection is in its life; only `active` connections hear about inbound bytes.
    enum State {
        /// A dial in progress: waiting for the socket to become writable.
        case connecting
        /// Open for reading and writing.
        case active
        /// Flushing its last bytes before closing; inbound bytes are discarded.
        case closing
        /// Write side shut down; waiting briefly for the peer's FIN so the last bytes are not lost to a reset.
        case lingering
        /// Gone: the descriptor is closed and the handler has heard.
        case closed
    }

    /// What the connection's single deadline stands for.
    enum TimerPurpose {
        /// The handler's own timer (`setTimer(after:)`).
        case handler
        /// The connect timeout of a dial, in nanoseconds.
        case connect(timeout: UInt64)
        /// The bound on `closing` and `lingering`.
        case close
    }

    /// Unique among the reactor's connections for its lifetime.
    package let id: UInt64
    let descriptor: Int32
    /// The peer as `host:port` (IPv6 in brackets).
    package let remoteAddress: String
    /// The thread-safe door for bytes from other threads.
    package let writer: ConnectionWriter
    unowned let reactor: Reactor
    /// Released once it has heard `connectionClosed` or `connectFailed`.
    var handler: (any ConnectionHandler)?
    var state: State
    /// The handler asked the reactor to stop reading (back-pressure).
    var isReadPaused = false
    /// Whether bytes may wait in the socket unread: false once a read found it empty (`EAGAIN`, or a short read of
    /// an edge without hang-up), true again at the next readable edge, which any later byte raises. Resuming reads
    /// only while it is true: a keep-alive HTTP connection resumes after every answer, mostly with nothing sent.
    var mayHaveUnreadInput = true
    /// The peer sent FIN.
    package internal(set) var isPeerClosed = false

    /// The queue size at or below which the handler hears `outputDrained`, once; `nil` when it asked for nothing.
    var drainMark: Int?

    var deadline: UInt64?
    var timerPurpose = TimerPurpose.handler
    /// The deadline of this connection's live entry in the timer heap, if any.
    var queuedTimer: UInt64?

    init(
        id: UInt64,
        descriptor: Int32,
        remoteAddress: String,
        writer: ConnectionWriter,
        reactor: Reactor,
        handler: any ConnectionHandler,
        state: State
    ) {
        self.id = id
        self.descriptor = descriptor
        self.remoteAddress = remoteAddress
        self.writer = writer
        self.reactor = reactor
        self.handler = handler
        self.state = state
    }

    /// Whether the connection is gone (closed by either side, an error, or the reactor).
    package var isClosed: Bool {
        self.state == .closed
    }

    /// Bytes queued for this connection and not yet written to the socket: a protocol with its own bounded queue
    /// (the peer transport) moves more bytes in only while this stays small.
    package var queuedOutboundBytes: Int {
        self.writer.queue.withLock { $0.queuedBytes }
    }

    /// Whether the reactor is shutting down: a protocol should take no new work on this connection.
    package var isReactorDraining: Bool {
        self.reactor.isDraining
    }

    /// Queues bytes the protocol itself produced (a response head, a whole response) outside the writer's bound,
    /// because their size was already fixed by the protocol; `flush()` sends them.
    package func enqueue(_ bytes: [UInt8]) {
        self.writer.enqueueUnbounded(bytes)
    }

    /// Writes what is queued until the socket would block; the rest follows when it becomes writable.
    package func flush() {
        self.reactor.flush(self)
    }

    /// Asks for `outputDrained` once the bytes queued for this connection fall to `mark` or below, as the peer reads.
    /// Back-pressure for protocols whose peer sends requests faster than it reads the answers.
    package func notifyWhenOutputDrains(to mark: Int) {
        self.drainMark = mark
    }

    /// Stops reading until `resumeReading()`: inbound bytes wait in the kernel, and the peer is slowed by TCP.
    package func pauseReading() {
        self.isReadPaused = true
    }

    /// Reads again, at once, whatever arrived while paused (nothing, with no `recv`, when the socket was read empty
    /// and no byte came since).
    package func resumeReading() {
        guard self.isReadPaused else { return }
        self.isReadPaused = false
        if self.mayHaveUnreadInput { self.reactor.readAvailable(self) }
    }

    /// Sets the handler's timer to fire `timerFired` after `nanoseconds`, replacing any earlier one. Ignored once
    /// a close has begun.
    package func setTimer(after nanoseconds: UInt64) {
        guard case .active = self.state else { return }
        self.reactor.setDeadline(self, .handler, after: nanoseconds)
    }

    /// Cancels the handler's timer.
    package func cancelTimer() {
        guard case .active = self.state else { return }
        self.deadline = nil
    }

    /// The protocol on this connection is established (its handshake passed): when a `Dialer` with
    /// `Dialer.BackoffReset.onConfirmation` made it, its back-off starts over now. Does nothing on other connections.
    package func confirmDial() {
        (self.handler as? DialedConnectionHandler)?.confirmed()
    }

    /// Closes the socket now, dropping anything still queued.
    package func close() {
        self.reactor.close(self)
    }

    /// Stops accepting writes, sends what is queued, shuts down the write side and waits briefly for the peer's
    /// FIN, then closes; bounded by the reactor's close timeout.
    package func closeAfterFlush() {
        self.reactor.closeAfterFlush(self)
    }
}
