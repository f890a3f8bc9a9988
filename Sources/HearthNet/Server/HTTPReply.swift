/// What the application does with a request: answer it, stream to it, or take over the connection.
public enum HTTPReply: Sendable {
    /// A complete response; the server adds `Content-Length` (and `Connection` when it closes).
    case response(HTTPResponse)
    /// A complete response already written into the bytes sent (`HTTPEncodedResponse`): queued as it is, or framed
    /// from its `response` when the request needs other framing.
    case encoded(HTTPEncodedResponse)
    /// A head sent with `Transfer-Encoding: chunked`, after which every `ConnectionWriter.write` becomes one chunk.
    /// The connection is not reused afterwards; `ConnectionWriter.close()` ends the body and the connection.
    case stream(HTTPResponse, any HTTPStreamSession)
    /// A head sent as given (normally status 101 with `Upgrade` fields), then raw bytes both ways; HTTP is never
    /// parsed on that connection again.
    case upgrade(HTTPResponse, any UpgradedConnectionHandler)
}

/// An open-ended response body such as Server-Sent Events (§7.6), fed from any thread through its writer.
///
/// Rules for implementers: `start` is called once, on the reactor thread, right after the head is queued, and may
/// write at once; `connectionClosed` is called exactly once, also on the reactor thread, whether the peer closed,
/// an error or outbound overflow happened, the writer was closed, or the server shut down (even if `start` was never
/// reached). Neither may block: hand work to a task or actor.
public protocol HTTPStreamSession: Sendable {
    func start(_ writer: ConnectionWriter)
    /// The node evicts the connection to protect its memory: queue a goodbye with `ConnectionWriter.writeFarewell`
    /// (called on the reactor thread; `connectionClosed` follows).
    func evicted(reason: ConnectionEviction)
    func connectionClosed()
}

extension HTTPStreamSession {
    /// By default a stream ends without a goodbye.
    public func evicted(reason: ConnectionEviction) {}
}

/// A connection taken over after a `101 Switching Protocols` head, such as a WebSocket.
///
/// All calls come from the reactor thread and must not block. `received` delivers inbound bytes in order,
/// starting with any bytes that arrived right behind the request head; `connectionClosed` is called exactly once.
/// A class: the connection's phase holds its handler as a reference and a witness table, whose copy (every read
/// of an upgraded connection switches over the phase) is one retain, where an existential of any type copied
/// through the runtime's value witnesses.
public protocol UpgradedConnectionHandler: AnyObject, Sendable {
    func start(_ writer: ConnectionWriter)
    /// Inbound bytes, lent for the call only (the reactor's read buffer, read into again next): a handler copies
    /// what it keeps, so no array is made per read.
    func received(_ bytes: UnsafeRawBufferPointer)
    /// Whether a message has begun and not ended, so the server holds the client to its minimum data rate.
    var isMidMessage: Bool { get }
    /// The message in progress is arriving slower than the minimum data rate: say goodbye and close.
    func inputTooSlow(_ rate: MinimumDataRate)
    /// The server is shutting down gracefully: the last chance to queue bytes (a WebSocket "going away" close
    /// frame). They are flushed, within the shutdown's flush bound, before the socket closes.
    func serverShuttingDown()
    /// The node evicts the connection to protect its memory: queue a goodbye with `ConnectionWriter.writeFarewell`.
    func evicted(reason: ConnectionEviction)
    /// Inbound bytes the handler holds (a message being reassembled), charged to the client memory budget.
    var heldInboundBytes: Int { get }
    /// Takes inbound bytes as `received(_:)` does and says what the handler holds after them, as `heldInboundBytes`
    /// and `isMidMessage` would: the server asks after every read, and a handler whose state sits behind a lock
    /// answers from the one hold that took the bytes.
    func receivedHolding(_ bytes: UnsafeRawBufferPointer) -> UpgradedInboundState
    func connectionClosed()
}

extension UpgradedConnectionHandler {
    /// By default a handler has nothing to say when the server stops.
    public func serverShuttingDown() {}

    /// By default a handler has no notion of messages, so none is ever in progress.
    public var isMidMessage: Bool { false }

    public func inputTooSlow(_ rate: MinimumDataRate) {}

    /// By default an evicted handler has no goodbye to say.
    public func evicted(reason: ConnectionEviction) {}

    /// By default a handler holds nothing inbound.
    public var heldInboundBytes: Int { 0 }

    /// By default the bytes are taken, then the handler is asked what it holds.
    public func receivedHolding(_ bytes: UnsafeRawBufferPointer) -> UpgradedInboundState {
        self.received(bytes)
        return UpgradedInboundState(heldBytes: self.heldInboundBytes, isMidMessage: self.isMidMessage)
    }
}

/// What becomes of a request once its head has arrived: its body is read (up to a limit), or the request is
/// answered at once and the connection closed without reading the body (a write the application already knows it
/// refuses, so that a huge body is never held).
public enum HTTPBodyAdmission: Sendable {
    case read(maximumBytes: Int)
    case refuse(HTTPResponse)
}

/// The application behind an `HTTPServer`.
///
/// `maximumBodyBytes` is called on the reactor thread as soon as a head arrives (it must be quick and must not
/// block); `handle` runs in the server's task group, one request at a time per connection. Pipelined requests that
/// `sharesBatches` admits and that arrived together go to `handle(batch:)` in one hand-off instead, so the
/// application can order them all before answering any (writes placed in one log turn, their listeners' events
/// gathered per connection), and their answers leave in order. `connectionClosed` is
/// called on the reactor thread (quick, never blocking) once per HTTP connection, with the `connectionID` its
/// requests carried, so an application that remembers something per connection can forget it.
public protocol HTTPRequestHandler: Sendable {
    /// Largest body accepted for this request head (lets the app lift the limit for imports).
    func maximumBodyBytes(
        method: String,
        path: String,
        query: [(name: String, value: String)],
        headers: HTTPHeaders
    ) -> Int
    /// Whether to read the body of this request head, and how much of it; called on the reactor thread like
    /// `maximumBodyBytes` (quick, never blocking). The default reads up to `maximumBodyBytes`.
    func admitBody(
        method: String,
        path: String,
        query: [(name: String, value: String)],
        headers: HTTPHeaders
    ) -> HTTPBodyAdmission
    /// Whether a request with this head may share a batch with the pipelined requests that follow it; called on
    /// the reactor thread (quick, never blocking). A request admitted here must be answered with a `.response`.
    /// The default admits none: each request is handled alone, once the one before it was answered.
    func sharesBatches(
        method: String,
        path: String,
        query: [(name: String, value: String)],
        headers: HTTPHeaders
    ) -> Bool
    func handle(_ request: HTTPRequest) async -> HTTPReply
    /// Handles pipelined requests of one connection that arrived together, in their order, and returns one reply
    /// for each, in the same order. Every request but the last was admitted by `sharesBatches`. The default handles
    /// each in turn with `handle(_:)`.
    func handle(batch requests: [HTTPRequest]) async -> [HTTPReply]
    /// Handles a batch as `handle(batch:)` does, and calls `ordered` once every request of it is in order — its
    /// effect placed after every earlier request's and before any later one's — which may be well before their
    /// answers: the connection then takes the pipelined requests behind the batch while it is answered, and still
    /// sends every answer in request order. Call it at most once, and only when the batch's answers do not depend
    /// on anything a later request could do. The default calls `handle(batch:)` and never calls `ordered`, so the
    /// next requests wait for these answers.
    func handle(batch requests: [HTTPRequest], ordered: @escaping @Sendable () -> Void) async -> [HTTPReply]
    /// Handles requests that arrived together (one request, or a batch as `handle(batch:ordered:)` takes, with
    /// `ordered` given only then), and hands their replies to `reply`, once and in request order. It may return
    /// before they are known: `reply` is then called from whichever thread learns the last of them (so it must be
    /// quick and must not block), and no task waits for them. The default awaits `handle(_:)` or
    /// `handle(batch:ordered:)` and replies.
    func handle(
        batch requests: [HTTPRequest], ordered: (@Sendable () -> Void)?,
        reply: @escaping @Sendable ([HTTPReply]) -> Void
    ) async
    /// Takes a batch (one request, or pipelined ones as `handle(batch:ordered:)` takes) on the reactor thread that
    /// read it, when the connection has no batch ahead of it that is not yet ordered: the application orders every
    /// request of it before it returns true — it must be quick and never block — and hands the replies to `reply`
    /// as `handle(batch:ordered:reply:)` does. A batch of more than one request taken here counts as ordered. When
    /// it returns false it did nothing (and never calls `reply`), and the batch goes to the server's task group as
    /// usual. The default takes none.
    func handleAtOnce(batch requests: [HTTPRequest], reply: @escaping @Sendable ([HTTPReply]) -> Void) -> Bool
    func connectionClosed(_ connectionID: UInt64)
}

extension HTTPRequestHandler {
    /// Firebase's documented REST write limit, 256 MB (§10).
    public func maximumBodyBytes(
        method: String,
        path: String,
        query: [(name: String, value: String)],
        headers: HTTPHeaders
    ) -> Int {
        256 * 1024 * 1024
    }

    /// Reads every body up to `maximumBodyBytes`.
    public func admitBody(
        method: String,
        path: String,
        query: [(name: String, value: String)],
        headers: HTTPHeaders
    ) -> HTTPBodyAdmission {
        .read(maximumBytes: self.maximumBodyBytes(method: method, path: path, query: query, headers: headers))
    }

    /// By default no request shares a batch.
    public func sharesBatches(
        method: String,
        path: String,
        query: [(name: String, value: String)],
        headers: HTTPHeaders
    ) -> Bool {
        false
    }

    /// Handles each request in turn, as if they had arrived one after another.
    public func handle(batch requests: [HTTPRequest]) async -> [HTTPReply] {
        var replies: [HTTPReply] = []
        for request in requests { replies.append(await self.handle(request)) }
        return replies
    }

    /// Handles the batch with `handle(batch:)`; the connection waits for its answers before it takes more.
    public func handle(batch requests: [HTTPRequest], ordered: @escaping @Sendable () -> Void) async -> [HTTPReply] {
        await self.handle(batch: requests)
    }

    /// Awaits the replies, then hands them on (`replyAwaited`).
    public func handle(
        batch requests: [HTTPRequest], ordered: (@Sendable () -> Void)?,
        reply: @escaping @Sendable ([HTTPReply]) -> Void
    ) async {
        await self.replyAwaited(batch: requests, ordered: ordered, reply: reply)
    }

    /// Awaits the batch's replies from the awaiting handlers (`handle(batch:ordered:)`, `handle(_:)` for one request
    /// alone, `handle(batch:)`), then hands them to `reply`: the default `handle(batch:ordered:reply:)`, and what an
    /// application that answers some batches by callback does with the others.
    public func replyAwaited(
        batch requests: [HTTPRequest], ordered: (@Sendable () -> Void)?,
        reply: @escaping @Sendable ([HTTPReply]) -> Void
    ) async {
        if let ordered {
            reply(await self.handle(batch: requests, ordered: ordered))
        } else if requests.count == 1, let request = requests.first {
            reply([await self.handle(request)])
        } else {
            reply(await self.handle(batch: requests))
        }
    }

    /// By default every batch goes to the server's task group.
    public func handleAtOnce(batch requests: [HTTPRequest], reply: @escaping @Sendable ([HTTPReply]) -> Void) -> Bool {
        false
    }

    /// By default an application remembers nothing per connection.
    public func connectionClosed(_ connectionID: UInt64) {}
}
