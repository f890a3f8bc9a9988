import CHearthSystem
import Glibc
import HearthSystem
import Synchronization

/// A request handed from the reactor thread to the server's task group.
struct ReactorRequest: Sendable {
    let connectionID: UInt64
    let request: HTTPRequest
}

/// The event loop: one thread running `epoll_wait` over the listener, every connection and the inbox's eventfd.
///
/// Connections are registered edge-triggered for input and output, so the reactor reads until `EAGAIN` and writes
/// until `EAGAIN`, then waits for the next edge; the listener and the eventfd are level-triggered (the listener pauses
/// when `accept` runs out of descriptors, see `Reactor+Accept.swift`). Timeouts live in a heap whose earliest
/// deadline bounds the `epoll_wait` timeout. Complete requests leave through an `AsyncStream` continuation; replies,
/// writer flushes and shutdown steps come back through the `ReactorInbox`.
///
/// Thread confinement: after `runLoop()` starts, every stored property is touched only by the reactor thread,
/// except `inbox` (Sendable) and `counters` (atomics). `HTTPServer` reads `failure` only after joining the thread.
final class Reactor {
    /// Limits copied from `HTTPServerConfiguration`, in the reactor's units.
    struct Settings {
        var maximumHeaderBytes: Int
        var headerTimeout: UInt64
        var idleTimeout: UInt64
        var outboundBufferLimit: Int
        var maximumConnections: Int
        /// How long the listener stays paused after `accept` ran out of descriptors, unless a connection closes
        /// sooner (see `Reactor+Accept.swift`).
        var acceptBackoff: UInt64
    }

    /// The listener's epoll token; also the timer-heap key of its accept back-off, since connection IDs start at 2.
    static let listenerToken: UInt64 = 0
    static let inboxToken: UInt64 = 1
    /// How long a closing connection may take to flush its last response and see the peer's FIN.
    static let closeTimeout: UInt64 = 2_000_000_000
    static let readBufferSize = 64 * 1024
    static let maximumEvents: Int32 = 256

    let settings: Settings
    let inbox: ReactorInbox
    let counters: NetworkCounters
    let handler: any HTTPRequestHandler
    let accept: AcceptFunction
    let requests: AsyncStream<ReactorRequest>.Continuation
    private let epoll: Int32
    var listener: Int32?
    /// When the paused listener is watched again; `nil` while it is watched.
    var listenerRetryDeadline: UInt64?
    var connections: [UInt64: Connection] = [:]
    var nextConnectionID: UInt64 = 2
    var timers = TimerHeap()
    var isDraining = false
    private var finishRequest: (deadline: UInt64, continuation: CheckedContinuation<Void, Never>)?
    /// Why the loop stopped early, if it did.
    private(set) var failure: IOError?
    let readBuffer: UnsafeMutableRawBufferPointer
    private let events: UnsafeMutablePointer<epoll_event>

    init(
        listener: Int32,
        settings: Settings,
        handler: any HTTPRequestHandler,
        counters: NetworkCounters,
        accept: @escaping AcceptFunction,
        requests: AsyncStream<ReactorRequest>.Continuation
    ) throws(IOError) {
        self.settings = settings
        self.handler = handler
        self.accept = accept
        self.counters = counters
        self.requests = requests
        self.listener = listener
        self.epoll = Int32(try Syscall.call("epoll_create1") { Int(epoll_create1(Int32(EPOLL_CLOEXEC))) })
        do {
            self.inbox = try ReactorInbox()
        } catch {
            Syscall.close(self.epoll)
            throw error
        }
        self.readBuffer = .allocate(byteCount: Self.readBufferSize, alignment: 16)
        self.events = .allocate(capacity: Int(Self.maximumEvents))
        try self.register(listener, token: Self.listenerToken, events: EPOLLIN.rawValue)
        try self.register(self.inbox.eventDescriptor, token: Self.inboxToken, events: EPOLLIN.rawValue)
    }

    deinit {
        self.readBuffer.deallocate()
        self.events.deallocate()
    }

    /// Runs until the finish command's connections are closed (or its deadline passes), or epoll fails; then
    /// releases every descriptor and ends the request stream.
    func runLoop() {
        while true {
            let now = MonotonicClock.now()
            if let finishRequest, self.connections.isEmpty || now >= finishRequest.deadline { break }
            let count: Int
            do {
                let timeout = self.waitTimeout(now: now)
                switch try Syscall.run(
                    "epoll_wait",
                    { Int(epoll_wait(self.epoll, self.events, Self.maximumEvents, timeout)) }
                ) {
                case .done(let ready): count = ready
                case .wouldBlock: count = 0
                }
            } catch {
                self.failure = error
                break
            }
            for index in 0..<count {
                let event = self.events[index]
                self.dispatch(token: event.data.u64, flags: event.events)
            }
            self.fireTimers(now: MonotonicClock.now())
        }
        self.tearDown()
    }

    private func dispatch(token: UInt64, flags: UInt32) {
        switch token {
        case Self.listenerToken:
            self.acceptConnections()
        case Self.inboxToken:
            for command in self.inbox.takeCommands() { self.perform(command) }
        default:
            guard let connection = self.connections[token] else { return }
            if flags & EPOLLOUT.rawValue != 0 { self.flush(connection) }
            let readable = EPOLLIN.rawValue | EPOLLRDHUP.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue
            if flags & readable != 0, self.connections[token] != nil { self.readAvailable(connection) }
        }
    }

    private func perform(_ command: ReactorInbox.Command) {
        switch command {
        case .reply(let connectionID, let reply):
            self.deliver(reply, to: connectionID)
        case .flush(let connectionID):
            if let connection = self.connections[connectionID] { self.flush(connection) }
        case .stopAccepting:
            self.beginDraining()
        case .finish(let deadline, let continuation):
            self.finishRequest = (deadline, continuation)
            // Every handler has returned, so a connection still waiting holds a request nobody took.
            for connection in self.connections.values {
                if case .awaitingReply = connection.phase { self.close(connection) }
            }
        }
    }

    /// Graceful shutdown, step 1: no new connections or requests; idle connections close, streams end.
    private func beginDraining() {
        guard !self.isDraining else { return }
        self.isDraining = true
        if let listener = self.listener {
            Syscall.close(listener)
            self.listener = nil
        }
        for connection in Array(self.connections.values) {
            switch connection.phase {
            case .reading:
                self.close(connection)
            case .upgraded(let handler):
                handler.serverShuttingDown()
                connection.writer.close()
                self.flush(connection)
            case .streaming:
                connection.writer.close()
                self.flush(connection)
            case .awaitingReply, .closing, .lingering:
                break
            }
        }
    }

    /// Closes every connection and descriptor, ends the request stream and releases waiters; also used when the
    /// reactor thread could not be started.
    func tearDown() {
        if let listener = self.listener { Syscall.close(listener) }
        self.listener = nil
        for connection in Array(self.connections.values) { self.close(connection) }
        Syscall.close(self.epoll)
        self.requests.finish()
        self.inbox.close()
        self.finishRequest?.continuation.resume()
        self.finishRequest = nil
    }

    func register(_ descriptor: Int32, token: UInt64, events: UInt32) throws(IOError) {
        var event = epoll_event()
        event.events = events
        event.data.u64 = token
        try Syscall.call("epoll_ctl(ADD)") { Int(epoll_ctl(self.epoll, EPOLL_CTL_ADD, descriptor, &event)) }
    }

    /// Changes the events watched on an already registered descriptor.
    func modify(_ descriptor: Int32, token: UInt64, events: UInt32) throws(IOError) {
        var event = epoll_event()
        event.events = events
        event.data.u64 = token
        try Syscall.call("epoll_ctl(MOD)") { Int(epoll_ctl(self.epoll, EPOLL_CTL_MOD, descriptor, &event)) }
    }

    // MARK: - Timers

    func setDeadline(_ connection: Connection, _ kind: Connection.DeadlineKind, after delay: UInt64) {
        let deadline = MonotonicClock.now() &+ delay
        connection.deadline = deadline
        connection.deadlineKind = kind
        if let queued = connection.queuedTimer, queued <= deadline { return }
        connection.queuedTimer = deadline
        self.timers.push(TimerHeap.Entry(deadline: deadline, connectionID: connection.id))
    }

    private func waitTimeout(now: UInt64) -> Int32 {
        var earliest = self.timers.first?.deadline
        if let finishRequest { earliest = min(earliest ?? finishRequest.deadline, finishRequest.deadline) }
        guard let earliest else { return -1 }
        guard earliest > now else { return 0 }
        let milliseconds = (earliest - now + 999_999) / 1_000_000
        return Int32(min(milliseconds, 60_000))
    }

    private func fireTimers(now: UInt64) {
        while let entry = self.timers.first, entry.deadline <= now {
            _ = self.timers.popFirst()
            if entry.connectionID == Self.listenerToken {
                self.listenerRetryTimerFired(deadline: entry.deadline)
                continue
            }
            guard let connection = self.connections[entry.connectionID], connection.queuedTimer == entry.deadline else {
                continue
            }
            connection.queuedTimer = nil
            guard let deadline = connection.deadline else { continue }
            if deadline > now {
                connection.queuedTimer = deadline
                self.timers.push(TimerHeap.Entry(deadline: deadline, connectionID: connection.id))
                continue
            }
            connection.deadline = nil
            self.expire(connection)
        }
    }

    private func expire(_ connection: Connection) {
        switch connection.deadlineKind {
        case .head:
            guard connection.isReading, connection.pendingHead == nil else { return }
            let message = "The request head did not arrive within the header timeout; send it promptly."
            self.respond(to: connection, with: HTTPParserError(.headTimeout, message))
        case .body:
            guard connection.isReading else { return }
            let message = "The request body stopped arriving; send it without long pauses."
            self.respond(to: connection, with: HTTPParserError(.headTimeout, message))
        case .idle, .close:
            self.close(connection)
        }
    }
}
