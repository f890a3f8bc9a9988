import HearthSystem
import Synchronization

/// Thread-safe handle to push bytes to one connection from any thread or task.
///
/// Writes append to the connection's bounded outbound queue under a small lock and wake the reactor, which sends
/// them in order. When a write would push the queue past the reactor's outbound limit (for a server,
/// `HTTPServerConfiguration.outboundBufferLimit`), the connection is closed at once and its queue dropped: a consumer
/// that cannot keep up never costs unbounded memory. A connection that stays above its soft limit for longer than
/// the grace period, or holds the most when clients together pass the node's `ClientMemoryBudget`, is evicted by
/// the reactor instead: its unsent messages are dropped and its protocol says goodbye. A protocol may set a
/// framing that wraps every write (for `.stream` replies each write becomes one HTTP chunk).
public final class ConnectionWriter: Sendable {
    /// What an accepted connection's memory is held to, beyond the hard `limit`.
    struct MemoryRules: Sendable {
        var budget: ClientMemoryBudget?
        var softLimit: OutputSoftLimit?
    }

    /// The connection's identifier, unique for its reactor's lifetime.
    public let id: UInt64
    private let limit: Int
    private let inbox: ReactorInbox
    private let budget: ClientMemoryBudget?
    /// Shared with the reactor, which drains it.
    let queue: Lock<OutboundQueue>
    /// Inbound bytes the connection's protocol holds (a request body being read, a message being reassembled).
    private let inbound = Atomic<Int>(0)
    /// Inbound bytes the application holds for the connection (messages received, not yet processed), and whether
    /// the connection is gone (later changes are ignored: closing released them).
    private let application = Lock((held: 0, isGone: false))

    init(id: UInt64, limit: Int, inbox: ReactorInbox, rules: MemoryRules = MemoryRules()) {
        self.id = id
        self.limit = limit
        self.inbox = inbox
        self.budget = rules.budget
        var queue = OutboundQueue()
        queue.softLimit = rules.softLimit.map(OutputSoftLimitWatch.init(limit:))
        self.queue = Lock(queue)
    }

    /// Bytes held for this connection: queued outbound and buffered inbound.
    package var heldBytes: Int {
        self.queue.withLock { $0.queuedBytes } + self.inbound.load(ordering: .relaxed)
            + self.application.withLock { $0.held }
    }

    /// Records that the application took (`delta` > 0) or finished with (`delta` < 0) received bytes it holds for
    /// this connection, such as whole messages waiting to be processed; they count against the client memory
    /// budget. The figure never goes below zero, and changes after the connection closed are ignored.
    package func holdInbound(_ delta: Int) {
        let change = self.application.withLock { application -> Int in
            guard !application.isGone else { return 0 }
            let before = application.held
            application.held = max(0, before + delta)
            return application.held - before
        }
        self.charge(change)
    }

    /// Records that the protocol now buffers `bytes` inbound bytes for this connection (reactor thread).
    package func setInboundHeld(_ bytes: Int) {
        let delta = bytes - self.inbound.exchange(bytes, ordering: .relaxed)
        self.charge(delta)
    }

    /// Whether writes are refused because the connection closed or a close was requested.
    public var isClosed: Bool {
        self.queue.withLock { $0.isClosed }
    }

    /// Queues `bytes`; returns `false` when the connection is closed or this write overflowed the bound (which
    /// closes it). Empty writes are accepted and send nothing. Inside a `FlushBatch`, the send waits for the batch's
    /// end.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        self.enqueue(CollectionOfOne(bytes), isLast: false)
    }

    /// Queues several messages with nothing of another write between them, in one step: the same as writing each in
    /// turn (and with the same result), but no other thread's write can land between two of them.
    @discardableResult
    public func write(contentsOf messages: [[UInt8]]) -> Bool {
        self.enqueue(messages, isLast: false)
    }

    /// Queues `bytes` as the last message: later writes are refused as if the connection were closed, while
    /// `close()` still flushes and closes it (a WebSocket's close frame, after which nothing may be sent).
    @discardableResult
    public func writeLast(_ bytes: [UInt8]) -> Bool {
        self.enqueue(CollectionOfOne(bytes), isLast: true)
    }

    private func enqueue(_ messages: some Collection<[UInt8]>, isLast: Bool) -> Bool {
        let limit = self.limit
        let (isAccepted, needsFlush, delta, isTooLong): (Bool, Bool, Int, Bool) = self.queue.withLock { queue in
            guard !queue.isClosed, !queue.isSealed else { return (false, false, 0, false) }
            if isLast { queue.isSealed = true }
            let before = queue.queuedBytes
            // Framed writes (HTTP chunks) are cut up first; plain ones are queued as they are, with no copy.
            let framed = queue.framing.map { framing in
                messages.filter { !$0.isEmpty }.flatMap { message in
                    framing.frame(message).enumerated().map { (part: $1, startsMessage: $0 == 0) }
                }
            }
            let added = framed?.reduce(0) { $0 + $1.part.count } ?? messages.reduce(0) { $0 + $1.count }
            guard added > 0 else { return (true, false, 0, false) }
            if before + added > limit {
                queue.hasOverflowed = true
                queue.isClosed = true
                queue.discardAll()
                return (false, Self.scheduleFlush(&queue), -before, false)
            }
            if let framed {
                for (part, startsMessage) in framed { queue.append(part, startsMessage: startsMessage) }
            } else {
                for bytes in messages { queue.append(bytes) }
            }
            let isTooLong = queue.isOverSoftLimitTooLong(now: MonotonicClock.now)
            let isNewlyTooLong = isTooLong && !queue.isEvictionRequested
            if isNewlyTooLong { queue.isEvictionRequested = true }
            return (true, Self.scheduleFlush(&queue), added, isNewlyTooLong)
        }
        self.charge(delta)
        if isTooLong { self.inbox.send(.evict(connectionID: self.id, .outputSoftLimit)) }
        if needsFlush {
            if let batch = FlushBatch.current {
                batch.add(self.inbox, connectionID: self.id)
            } else {
                self.inbox.send(.flush(connectionID: self.id))
            }
        }
        return isAccepted
    }

    /// Flushes what is queued and the framing's trailer (the end of a chunked body), then closes the connection.
    /// Later writes return `false`.
    public func close() {
        let (needsFlush, added): (Bool, Int) = self.queue.withLock { queue in
            guard !queue.isClosed else { return (false, 0) }
            queue.isClosed = true
            queue.isCloseRequested = true
            let trailer = queue.framing?.trailer ?? []
            queue.append(trailer)
            return (Self.scheduleFlush(&queue), trailer.count)
        }
        self.charge(added)
        if needsFlush { self.inbox.send(.flush(connectionID: self.id)) }
    }

    /// Reactor-side: queues bytes the protocol itself produced (heads, whole responses), outside the bound, because
    /// their size was already fixed by the application.
    func enqueueUnbounded(_ bytes: [UInt8]) {
        self.queue.withLock { $0.append(bytes) }
        self.charge(bytes.count)
    }

    /// Reactor-side: `count` bytes reached the socket (none is fine), then `next` reads the queue, in one hold of
    /// the lock: a flush drops what one send wrote and finds what to send next together.
    func consumed<Next>(_ count: Int, then next: (inout OutboundQueue) -> Next) -> Next {
        let result = self.queue.withLock { queue in
            if count > 0 {
                queue.consume(count)
                _ = queue.isOverSoftLimitTooLong(now: MonotonicClock.now)
            }
            return next(&queue)
        }
        if count > 0 { self.charge(-count) }
        return result
    }

    /// Reactor-side, first step of an eviction: refuses further writes and drops every message not yet begun.
    func beginEviction() {
        let dropped = self.queue.withLock { queue in
            queue.isClosed = true
            return queue.dropUnstarted()
        }
        self.charge(-dropped)
    }

    /// During an eviction (reactor thread), queues the protocol's goodbye, framed like its other writes, after the
    /// message in progress; the framing's trailer follows when the reactor closes.
    package func writeFarewell(_ bytes: [UInt8]) {
        let added = self.queue.withLock { queue -> Int in
            let before = queue.queuedBytes
            for (index, part) in (queue.framing?.frame(bytes) ?? [bytes]).enumerated() {
                queue.append(part, startsMessage: index == 0)
            }
            return queue.queuedBytes - before
        }
        self.charge(added)
    }

    /// Reactor-side, last step of an eviction: the framing's trailer, then a close once flushed.
    func endEviction() {
        let added = self.queue.withLock { queue -> Int in
            queue.isCloseRequested = true
            guard let trailer = queue.framing?.trailer else { return 0 }
            queue.append(trailer)
            return trailer.count
        }
        self.charge(added)
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
        let dropped = self.queue.withLock { queue in
            defer { queue.discardAll() }
            queue.isClosed = true
            return queue.queuedBytes
        }
        let application = self.application.withLock { application -> Int in
            defer { application = (held: 0, isGone: true) }
            return application.held
        }
        self.charge(-dropped - self.inbound.exchange(0, ordering: .relaxed) - application)
    }

    /// Charges the budget, asking the reactor to enforce it when this charge took it over.
    private func charge(_ delta: Int) {
        guard let budget = self.budget, budget.charge(delta) else { return }
        self.inbox.send(.enforceClientMemoryBudget)
    }

    private static func scheduleFlush(_ queue: inout OutboundQueue) -> Bool {
        guard !queue.isFlushScheduled else { return false }
        queue.isFlushScheduled = true
        return true
    }
}
