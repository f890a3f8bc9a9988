/// One accepted TCP connection as the reactor sees it: socket, parser, writer and where it is in its life.
///
/// Confined to the reactor thread; only its `writer` is shared with other threads.
final class Connection {
    /// What the connection is doing, which decides what inbound bytes mean.
    enum Phase {
        /// Parsing a request head or body (or idle between keep-alive requests).
        case reading
        /// A request is with the application; reading pauses so pipelined requests wait in the parser's buffer.
        case awaitingReply(HTTPRequestHead)
        /// A `.stream` reply is in progress; inbound bytes are discarded.
        case streaming
        /// Taken over by an upgrade handler; inbound bytes go to it.
        case upgraded(any UpgradedConnectionHandler)
        /// Flushing its last bytes before closing.
        case closing
        /// Write side shut down; waiting briefly for the peer's FIN so the last response is not lost to a reset.
        case lingering
    }

    /// Which timeout the connection's deadline stands for.
    enum DeadlineKind {
        case head
        case idle
        case body
        case close
    }

    /// Who must hear, exactly once, that the connection closed.
    enum Attachment {
        case stream(any HTTPStreamSession)
        case upgrade(any UpgradedConnectionHandler)
    }

    let id: UInt64
    let descriptor: Int32
    let remoteAddress: String
    let writer: ConnectionWriter
    var parser: HTTPRequestParser
    var phase: Phase = .reading
    var attachment: Attachment?
    /// The head whose body is being read.
    var pendingHead: HTTPRequestHead?
    /// The peer sent FIN; close as soon as our side is flushed.
    var isPeerClosed = false

    var deadline: UInt64?
    var deadlineKind: DeadlineKind = .head
    /// The deadline of this connection's live entry in the timer heap, if any.
    var queuedTimer: UInt64?

    init(id: UInt64, descriptor: Int32, remoteAddress: String, writer: ConnectionWriter, maximumHeaderBytes: Int) {
        self.id = id
        self.descriptor = descriptor
        self.remoteAddress = remoteAddress
        self.writer = writer
        self.parser = HTTPRequestParser(maximumHeaderBytes: maximumHeaderBytes)
    }

    var isReading: Bool {
        if case .reading = self.phase { return true }
        return false
    }
}
