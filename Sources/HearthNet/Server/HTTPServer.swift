import Glibc
import HearthSystem

/// An HTTP/1.1 server on one epoll reactor thread, handing requests to Swift concurrency in a task group.
///
/// The reactor (an `EventLoop`) knows nothing of HTTP: the server gives it a listener whose connections each get an
/// `HTTPConnectionHandler`, and sends the application's replies back to those handlers through the loop's inbox.
///
/// `run()` owns everything: it starts the reactor thread, handles each request as a child task of its group (one at
/// a time per connection, in order, or pipelined requests that arrived together as one batch; different connections
/// concurrently) unless the application takes it on the reactor thread (`HTTPRequestHandler.handleAtOnce`), and
/// when the calling task is cancelled it
/// shuts down gracefully: stop accepting and close idle connections, let in-flight handlers finish, flush their
/// responses for at most `shutdownFlushSeconds`, end streams (`connectionClosed`), close every socket.
///
/// Handlers see the cancellation of `run()`'s task like any child task; they may use it to finish early, and their
/// reply is still sent.
public final class HTTPServer: Sendable {
    private enum Phase {
        case created
        case bound(descriptor: Int32, port: Int)
        case running
        case stopped
    }

    /// How long accepting pauses after `accept` runs out of descriptors, unless a connection closes sooner.
    package static let defaultAcceptBackoffSeconds = 0.1
    /// The real `accept4`-based accept, for tests that wrap it.
    package static let systemAccept: AcceptFunction = { listener throws(IOError) in try Socket.accept(listener) }

    private let configuration: HTTPServerConfiguration
    private let handler: any HTTPRequestHandler
    private let accept: AcceptFunction
    private let acceptBackoffSeconds: Double
    private let counters: NetworkCounters
    private let budget: ClientMemoryBudget?
    /// The client memory budget this server enforces, in bytes; `nil` when it has none.
    package var clientMemoryLimit: Int? { self.budget?.limit }
    private let phase = Lock(Phase.created)

    public convenience init(configuration: HTTPServerConfiguration, handler: any HTTPRequestHandler) {
        self.init(
            configuration: configuration,
            handler: handler,
            acceptBackoffSeconds: Self.defaultAcceptBackoffSeconds,
            accept: Self.systemAccept
        )
    }

    /// A server whose listener takes connections through `accept`, pausing for `acceptBackoffSeconds` after a
    /// resource failure; the seam tests use to simulate `EMFILE`.
    package init(
        configuration: HTTPServerConfiguration,
        handler: any HTTPRequestHandler,
        acceptBackoffSeconds: Double,
        accept: @escaping AcceptFunction
    ) {
        self.configuration = configuration
        self.handler = handler
        self.budget = configuration.maximumClientMemory.map(ClientMemoryBudget.init(limit:))
        self.counters = NetworkCounters(budget: self.budget)
        self.acceptBackoffSeconds = acceptBackoffSeconds
        self.accept = accept
    }

    deinit {
        if case .bound(let descriptor, _) = self.phase.withLock({ $0 }) { Syscall.close(descriptor) }
    }

    /// Live counters (accepted and open connections, bytes read and written, accept failures).
    public var statistics: NetworkStatistics { self.counters.snapshot }

    /// Binds and listens (`SO_REUSEADDR`, backlog 1024) and returns the actual port, which matters for port 0.
    /// Calling it again returns the same port.
    ///
    /// - Throws: `IOError` when the address is invalid or taken, or the server already ran.
    @discardableResult
    public func bind() throws -> Int {
        try self.phase.withLock { phase throws(IOError) -> Int in
            switch phase {
            case .bound(_, let port):
                return port
            case .running, .stopped:
                throw IOError(
                    .invalidState,
                    "The server is running or has stopped; create a new HTTPServer to bind again."
                )
            case .created:
                signal(SIGPIPE, SIG_IGN)
                let descriptor = try Socket.makeListener(
                    host: self.configuration.host,
                    port: self.configuration.port,
                    backlog: 1024
                )
                do throws(IOError) {
                    let port = try Socket.localPort(descriptor)
                    phase = .bound(descriptor: descriptor, port: port)
                    return port
                } catch {
                    Syscall.close(descriptor)
                    throw error
                }
            }
        }
    }

    /// Serves until the calling task is cancelled, then shuts down gracefully (see the type's discussion).
    ///
    /// - Throws: `IOError` when binding fails or the reactor's epoll fails.
    public func run() async throws {
        _ = try self.bind()
        let (listener, port) = try self.phase.withLock { phase throws(IOError) -> (Int32, Int) in
            guard case .bound(let descriptor, let port) = phase else {
                throw IOError(.invalidState, "run() was called twice; each HTTPServer runs once.")
            }
            phase = .running
            return (descriptor, port)
        }
        defer { self.phase.withLock { $0 = .stopped } }
        let (requests, continuation) = AsyncStream.makeStream(of: ReactorRequest.self)
        let connectionSettings = self.connectionSettings
        let application = self.handler
        let outstanding = OutstandingReplies()
        let loop = try EventLoop(
            settings: self.reactorSettings,
            counters: self.counters,
            listener: Listener(descriptor: listener, port: port, accept: self.accept, refusal: Self.noRoomResponse) {
                HTTPConnectionHandler(
                    settings: connectionSettings, application: application, requests: continuation,
                    outstanding: outstanding)
            },
            stopped: { continuation.finish() }
        )
        await withDiscardingTaskGroup { group in
            for await item in requests {
                outstanding.begin()
                group.addTask {
                    var ordered: (@Sendable () -> Void)?
                    if item.requests.count > 1 {
                        ordered = { loop.send(HTTPBatchOrdered(batch: item.batch), to: item.connectionID) }
                    }
                    await application.handle(batch: item.requests, ordered: ordered) { replies in
                        loop.send(HTTPBatchReply(batch: item.batch, replies: replies), to: item.connectionID)
                        outstanding.end()
                    }
                }
            }
            outstanding.close()
            loop.drain()
        }
        await outstanding.wait()
        await loop.finish(
            deadline: MonotonicClock.now() &+ MonotonicClock.nanoseconds(self.configuration.shutdownFlushSeconds)
        )
        if let failure = loop.join() { throw failure }
    }

    /// What a client the server has no room for hears before it is closed.
    static let noRoomResponse: [UInt8] = {
        var response = HTTPResponse.jsonError(
            status: 503,
            message: "The server holds as many connections as it can; retry in a moment."
        )
        response.headers.add("Retry-After", "1")
        response.headers.add("Connection", "close")
        response.headers.add("Content-Length", String(response.body.count))
        return HTTPResponseEncoder.encodeHead(status: 503, headers: response.headers) + response.body
    }()

    private var reactorSettings: Reactor.Settings {
        let softLimit = OutputSoftLimit(
            bytes: self.configuration.outputSoftLimitBytes,
            grace: MonotonicClock.nanoseconds(self.configuration.outputSoftLimitSeconds))
        return Reactor.Settings(
            outboundBufferLimit: self.configuration.outboundBufferLimit,
            clientMemory: ConnectionWriter.MemoryRules(budget: self.budget, softLimit: softLimit),
            onEviction: self.configuration.onEviction,
            maximumConnections: self.configuration.maximumConnections,
            acceptBackoff: MonotonicClock.nanoseconds(self.acceptBackoffSeconds),
            sendHelpers: self.configuration.sendHelpers
        )
    }

    private var connectionSettings: HTTPConnectionHandler.Settings {
        HTTPConnectionHandler.Settings(
            maximumHeaderBytes: self.configuration.maximumHeaderBytes,
            headerTimeout: MonotonicClock.nanoseconds(self.configuration.headerTimeoutSeconds),
            idleTimeout: MonotonicClock.nanoseconds(self.configuration.idleTimeoutSeconds),
            minimumDataRate: self.configuration.minimumDataRate,
            bodyDeadline: self.configuration.bodyDeadlineSeconds.map { MonotonicClock.nanoseconds($0) }
        )
    }
}
