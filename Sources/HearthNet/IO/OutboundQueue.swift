/// The bytes waiting to be written to one connection, in order, with the flags the writer and reactor share.
///
/// Appends are O(1) amortised; the consumed prefix is dropped lazily so the reactor's partial writes never copy
/// the remaining bytes. The queue knows where each message (one write, whatever its framing made of it) begins, so
/// an evicted connection can drop the messages not yet begun without cutting one in half.
struct OutboundQueue {
    private var chunks: [[UInt8]] = []
    /// Per chunk: whether it begins a message.
    private var startsMessage: [Bool] = []
    private var firstChunk = 0
    /// Bytes of `chunks[firstChunk]` already written.
    private var offset = 0
    private(set) var queuedBytes = 0

    /// No more writes are accepted (closed, or a close was requested).
    var isClosed = false
    /// The last message is queued (a WebSocket's close frame): writes are refused, but a close still flushes.
    var isSealed = false
    /// The writer asked to flush and close; the reactor closes once `isEmpty`.
    var isCloseRequested = false
    /// The limit was exceeded: the reactor must close without flushing.
    var hasOverflowed = false
    /// How writes are wrapped (HTTP chunks), if at all.
    var framing: (any OutboundFraming)?
    /// A flush command is already on its way to the reactor.
    var isFlushScheduled = false
    /// The connection's standing against its soft limit, when it has one.
    var softLimit: OutputSoftLimitWatch?
    /// The reactor was asked to evict the connection (once is enough).
    var isEvictionRequested = false

    var isEmpty: Bool { self.queuedBytes == 0 }

    /// Notes the queue's size against the soft limit; true when it has been above it for too long. The clock is
    /// read only while the queue is, or just was, above the limit (writes to a connection that keeps up stay cheap).
    mutating func isOverSoftLimitTooLong(now: () -> UInt64) -> Bool {
        guard var watch = self.softLimit, self.queuedBytes > watch.limit.bytes || watch.aboveSince != nil else {
            return false
        }
        defer { self.softLimit = watch }
        return watch.observe(queuedBytes: self.queuedBytes, now: now())
    }

    /// Appends one chunk; `startsMessage` is false for the later parts of one framed write.
    mutating func append(_ bytes: [UInt8], startsMessage: Bool = true) {
        guard !bytes.isEmpty else { return }
        self.chunks.append(bytes)
        self.startsMessage.append(startsMessage)
        self.queuedBytes += bytes.count
    }

    /// Drops every message not yet begun, keeping the one being written (its chunks stay, so the peer receives it
    /// whole). Returns how many bytes were dropped.
    @discardableResult
    mutating func dropUnstarted() -> Int {
        var cut = self.firstChunk
        if cut < self.chunks.count, self.offset > 0 || !self.startsMessage[cut] { cut += 1 }
        while cut < self.chunks.count, !self.startsMessage[cut] { cut += 1 }
        guard cut < self.chunks.count else { return 0 }
        let dropped = self.chunks[cut...].reduce(0) { $0 + $1.count }
        self.chunks.removeSubrange(cut...)
        self.startsMessage.removeSubrange(cut...)
        self.queuedBytes -= dropped
        return dropped
    }

    /// The next bytes to write: a chunk and the offset where its unwritten part starts.
    var front: (chunk: [UInt8], offset: Int)? {
        guard self.firstChunk < self.chunks.count else { return nil }
        return (self.chunks[self.firstChunk], self.offset)
    }

    /// Whether the front holds several chunks that together are small: worth gathering into one send.
    var isFrontFragmented: Bool {
        self.chunks.count - self.firstChunk > 1
            && self.chunks[self.firstChunk].count - self.offset < Self.gatherBelow
    }

    /// Chunks at the front shorter than this are gathered with the ones after them into one send.
    static let gatherBelow = 16 * 1024

    /// Copies bytes from the front, across chunks, into `buffer` without consuming them; returns how many.
    func copyFront(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        var copied = 0
        var index = self.firstChunk
        var offset = self.offset
        while copied < buffer.count, index < self.chunks.count {
            let count = min(self.chunks[index].count - offset, buffer.count - copied)
            self.chunks[index].withUnsafeBytes { bytes in
                UnsafeMutableRawBufferPointer(rebasing: buffer[copied..<(copied + count)])
                    .copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)]))
            }
            copied += count
            index += 1
            offset = 0
        }
        return copied
    }

    /// Drops `count` written bytes from the front.
    mutating func consume(_ count: Int) {
        var remaining = count
        self.queuedBytes -= count
        while remaining > 0, self.firstChunk < self.chunks.count {
            let available = self.chunks[self.firstChunk].count - self.offset
            if remaining < available {
                self.offset += remaining
                return
            }
            remaining -= available
            self.chunks[self.firstChunk] = []
            self.firstChunk += 1
            self.offset = 0
        }
        if self.firstChunk == self.chunks.count {
            self.chunks.removeAll(keepingCapacity: true)
            self.startsMessage.removeAll(keepingCapacity: true)
            self.firstChunk = 0
        } else if self.firstChunk >= 64, self.firstChunk * 2 >= self.chunks.count {
            self.chunks.removeFirst(self.firstChunk)
            self.startsMessage.removeFirst(self.firstChunk)
            self.firstChunk = 0
        }
    }

    /// Forgets everything queued (the connection is gone).
    mutating func discardAll() {
        self.chunks = []
        self.startsMessage = []
        self.firstChunk = 0
        self.offset = 0
        self.queuedBytes = 0
    }
}
