import Synchronization

/// Thread-safe handle to push bytes to one connection from any thread or task.
///
/// Writes append to the connection's bounded outbound queue under a small lock and wake the reactor, which sends
/// them in order. When a write would push the queue past the reactor's outbound limit (for a server,
/// `HTTPServerConfiguration.outboundBufferLimit`), the connection is closed at once and its queue dropped: a consumer
/// that cannot keep up never costs unbounded memory. A protocol may set a framing that wraps every write (for
/// `.stream` replies each write becomes one HTTP chunk).
public final class ConnectionWriter: Sendable {
    /// The connection's identifier, unique for its reactor's lifetime.
    public let id: UInt64
    private let limit: Int
    private let inbox: ReactorInbox
    /// Shared with the reactor, which drains it.
    let queue = Mutex(OutboundQueue())

    init(id: UInt64, limit: Int, inbox: ReactorInbox) {
        self.id = id
        self.limit = limit
        self.inbox = inbox
    }

    /// Whether writes are refused because the connection closed or a close was requested.
    public var isClosed: Bool {
        self.queue.withLock { $0.isClosed }
    }

    /// Queues `bytes`; returns `false` when the connection is closed or this write overflowed the bound (which
    /// closes it). Empty writes are accepted and send nothing.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        let limit = self.limit
        let (isAccepted, needsFlush): (Bool, Bool) = self.queue.withLock { queue in
            guard !queue.isClosed else { return (false, false) }
            guard !bytes.isEmpty else { return (true, false) }
            let framed = queue.framing?.frame(bytes) ?? [bytes]
            if queue.queuedBytes + framed.reduce(0, { $0 + $1.count }) > limit {
                queue.hasOverflowed = true
                queue.isClosed = true
                queue.discardAll()
                return (false, Self.scheduleFlush(&queue))
            }
            for part in framed { queue.append(part) }
            return (true, Self.scheduleFlush(&queue))
        }
        if needsFlush { self.inbox.send(.flush(connectionID: self.id)) }
        return isAccepted
    }

    /// Flushes what is queued and the framing's trailer (the end of a chunked body), then closes the connection.
    /// Later writes return `false`.
    public func close() {
        let needsFlush: Bool = self.queue.withLock { queue in
            guard !queue.isClosed else { return false }
            queue.isClosed = true
            queue.isCloseRequested = true
            if let trailer = queue.framing?.trailer { queue.append(trailer) }
            return Self.scheduleFlush(&queue)
        }
        if needsFlush { self.inbox.send(.flush(connectionID: self.id)) }
    }

    /// Reactor-side: queues bytes the protocol itself produced (heads, whole responses), outside the bound, because
    /// their size was already fixed by the application.
    func enqueueUnbounded(_ bytes: [UInt8]) {
        self.queue.withLock { $0.append(bytes) }
    }

    /// Wraps later writes in `framing` (`nil` sends them as they are); a protocol sets it on the reactor thread
    /// before handing the writer out.
    package func setFraming(_ framing: (any OutboundFraming)?) {
        self.queue.withLock { $0.framing = framing }
    }

    /// Reactor-side: refuses further writes and asks for a close once the queue drains.
    func requestClose() {
        self.queue.withLock { queue in
            queue.isClosed = true
            queue.isCloseRequested = true
        }
    }

    /// Reactor-side: the socket is gone; drop everything.
    func markClosed() {
        self.queue.withLock { queue in
            queue.isClosed = true
            queue.discardAll()
        }
    }

    private static func scheduleFlush(_ queue: inout OutboundQueue) -> Bool {
        guard !queue.isFlushScheduled else { return false }
        queue.isFlushScheduled = true
        return true
    }
}
