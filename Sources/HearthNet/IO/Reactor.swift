import CHearthSystem
import Glibc
import HearthSystem

/// The event loop: one thread running `epoll_wait` over an optional listener, every connection (accepted or
/// dialed) and the inbox's eventfd. It knows nothing of HTTP: each connection's bytes go to its `ConnectionHandler`.
///
/// Connections are registered edge-triggered for input and output, so the reactor reads until `EAGAIN` (or a read
/// that does not fill its buffer, which emptied the socket) and writes until `EAGAIN`, then waits for the next edge; the listener and the eventfd are level-triggered (the listener pauses
/// when `accept` runs out of descriptors, see `Reactor+Accept.swift`). A dial completes on its first writable edge
/// (`Reactor+Dial.swift`). Timeouts live in a heap whose earliest deadline bounds the `epoll_wait` timeout. Messages,
/// writer flushes, dials and shutdown steps come from other threads through the `ReactorInbox`.
///
/// Thread confinement: after `runLoop()` starts, every stored property is touched only by the reactor thread,
/// except `inbox` (Sendable) and `counters` (atomics).
final class Reactor {
    /// Limits in the reactor's units (nanoseconds, bytes).
    struct Settings {
        var outboundBufferLimit: Int
        /// What accepted connections' memory is held to besides `outboundBufferLimit` (dialed ones: nothing).
        var clientMemory = ConnectionWriter.MemoryRules()
        /// Hears every eviction (the peer's address, why, and the bytes it held), for the node's log.
        var onEviction: @Sendable (String, ConnectionEviction, Int) -> Void = { _, _, _ in }
        var maximumConnections: Int
        /// How long the listener stays paused after `accept` ran out of descriptors, unless a connection closes
        /// sooner (see `Reactor+Accept.swift`).
        var acceptBackoff: UInt64
        /// Threads besides the reactor's that send when one batch flushes many connections at once
        /// (`Reactor+ParallelFlush.swift`); 0 sends everything from the reactor thread.
        var sendHelpers = 0
        /// The fewest connections in one batch that the send helpers share. Smaller batches go out from the reactor
        /// alone: on a busy machine two threads sending at once take the cores the clients' and the node's other
        /// work need, and a batch of 2,000 listeners was slower shared than sent from one thread (docs/benchmarks.md,
        /// "Sends from more than one thread").
        var parallelFlushMinimum = Reactor.defaultParallelFlushMinimum
    }

    /// See `Settings.parallelFlushMinimum`.
    static let defaultParallelFlushMinimum = 4096

    /// The listener's epoll token; also the timer-heap key of its accept back-off, since other IDs start at 2.
    static let listenerToken: UInt64 = 0
    static let inboxToken: UInt64 = 1
    /// How long a closing connection may take to flush its last bytes and see the peer's FIN.
    static let closeTimeout: UInt64 = 2_000_000_000
    static let readBufferSize = 64 * 1024
    static let maximumEvents: Int32 = 256

    let settings: Settings
    let inbox: ReactorInbox
    let counters: NetworkCounters
    private let epoll: Int32
    var listener: Listener?
    /// When the paused listener is watched again; `nil` while it is watched.
    var listenerRetryDeadline: UInt64?
    /// Held open while there is a listener, and closed for a moment when `accept` runs out of descriptors so the
    /// waiting client can be told there is no room (see `Reactor+Accept.swift`).
    var spareDescriptor: Int32?
    var connections: [UInt64: Connection] = [:]
    /// The dialers keeping a peer connected, by `Dialer` ID.
    var dialers: [UInt64: DialerCore] = [:]
    /// Work scheduled with `schedule(after:_:)`, by timer key.
    var scheduled: [UInt64: () -> Void] = [:]
    /// The next connection ID or timer key; 0 and 1 are the listener's and the inbox's tokens.
    var nextID: UInt64 = 2
    var timers = TimerHeap()
    private(set) var isDraining = false
    var finishRequest: (deadline: UInt64, continuation: CheckedContinuation<Void, Never>)?
    /// Called once the loop has stopped and released everything.
    private let stopped: @Sendable () -> Void
    /// Why the loop stopped early, if it did.
    private var failure: IOError?
    let readBuffer: UnsafeMutableRawBufferPointer
    /// Where small queued chunks are gathered to go out in one send (see `flush`).
    let writeBuffer: UnsafeMutableRawBufferPointer
    private let events: UnsafeMutablePointer<epoll_event>
    /// Send beside the reactor in a large batch of flushes; nil when `Settings.sendHelpers` is 0.
    let sendHelpers: SendHelpers?

    init(
        settings: Settings,
        counters: NetworkCounters,
        listener: Listener?,
        stopped: @escaping @Sendable () -> Void
    ) throws(IOError) {
        self.settings = settings
        self.counters = counters
        self.listener = listener
        self.stopped = stopped
        self.epoll = Int32(try Syscall.call("epoll_create1") { Int(epoll_create1(Int32(EPOLL_CLOEXEC))) })
        do {
            self.inbox = try ReactorInbox()
        } catch {
            Syscall.close(self.epoll)
            throw error
        }
        do {
            self.sendHelpers =
                settings.sendHelpers > 0 ? try SendHelpers(count: settings.sendHelpers, counters: counters) : nil
        } catch {
            Syscall.close(self.epoll)
            self.inbox.close(failure: nil)
            throw error
        }
        self.readBuffer = .allocate(byteCount: Self.readBufferSize, alignment: 16)
        self.writeBuffer = .allocate(byteCount: Self.readBufferSize, alignment: 16)
        if listener != nil { self.spareDescriptor = Self.openSpareDescriptor() }
        self.events = .allocate(capacity: Int(Self.maximumEvents))
        do {
            if let listener {
                try self.register(listener.descriptor, token: Self.listenerToken, events: EPOLLIN.rawValue)
            }
            try self.register(self.inbox.eventDescriptor, token: Self.inboxToken, events: EPOLLIN.rawValue)
        } catch {
            Syscall.close(self.epoll)
            self.inbox.close(failure: nil)
            self.sendHelpers?.stop()
            throw error
        }
    }

    deinit {
        self.readBuffer.deallocate()
        self.writeBuffer.deallocate()
        self.events.deallocate()
    }

    /// Runs until the finish command's connections are closed (or its deadline passes), or epoll fails; then
    /// releases every descriptor and calls `stopped`.
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
            self.performAll(self.inbox.takeCommands())
        default:
            guard let connection = self.connections[token] else { return }
            if connection.state == .connecting {
                self.completeConnect(connection, flags: flags)
                return
            }
            if flags & EPOLLOUT.rawValue != 0 { self.flush(connection) }
            let readable = EPOLLIN.rawValue | EPOLLRDHUP.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue
            let ending = EPOLLRDHUP.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue
            if flags & readable != 0, !connection.isClosed {
                connection.mayHaveUnreadInput = true
                self.readAvailable(connection, stopsAtShortRead: flags & ending == 0)
            }
        }
    }

    func perform(_ command: ReactorInbox.Command) {
        switch command {
        case .message(let connectionID, let message):
            guard let connection = self.connections[connectionID], let handler = connection.handler,
                connection.state != .connecting
            else {
                message.discard()
                return
            }
            handler.handle(message, on: connection)
        case .flush(let connectionID):
            self.flushIfOpen(connectionID)
        case .flushMany(let connectionIDs):
            self.flushMany(connectionIDs)
        case .evict(let connectionID, let reason):
            if let connection = self.connections[connectionID] { self.evict(connection, reason: reason) }
        case .enforceClientMemoryBudget:
            self.enforceClientMemoryBudget()
        case .execute(let work):
            work.body(self)
        case .drain:
            self.beginDraining()
        case .finish(let deadline, let continuation):
            self.beginFinishing(deadline: deadline, continuation)
        }
    }

    /// Graceful shutdown, step 1: no new connections, dials or reconnects; each connection's handler decides how to
    /// wind down (idle HTTP connections close, streams end, WebSockets say goodbye), and dials in progress are
    /// abandoned.
    func beginDraining() {
        guard !self.isDraining else { return }
        self.isDraining = true
        if let listener = self.listener {
            Syscall.close(listener.descriptor)
            self.listener = nil
        }
        for dialer in Array(self.dialers.values) { dialer.stop() }
        for connection in Array(self.connections.values) {
            switch connection.state {
            case .connecting:
                self.close(connection, error: Self.abandoned(connection))
            case .active:
                connection.handler?.reactorDraining(connection)
            case .closing, .lingering, .closed:
                break
            }
        }
    }

    /// Graceful shutdown, step 2: the loop ends once every connection has closed, or at `deadline`.
    private func beginFinishing(deadline: UInt64, _ continuation: CheckedContinuation<Void, Never>) {
        self.beginDraining()
        self.finishRequest = (deadline, continuation)
        for connection in Array(self.connections.values) where connection.state == .active {
            connection.handler?.reactorFinishing(connection)
        }
    }

    /// Closes every connection and descriptor, calls `stopped` and releases waiters; also used when the reactor
    /// thread could not be started.
    func tearDown() {
        if let listener = self.listener { Syscall.close(listener.descriptor) }
        self.listener = nil
        if let spare = self.spareDescriptor { Syscall.close(spare) }
        self.spareDescriptor = nil
        for dialer in Array(self.dialers.values) { dialer.stop() }
        for connection in Array(self.connections.values) {
            self.close(connection, error: connection.state == .connecting ? Self.abandoned(connection) : nil)
        }
        self.scheduled = [:]
        self.sendHelpers?.stop()
        Syscall.close(self.epoll)
        self.stopped()
        self.inbox.close(failure: self.failure)
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

    /// A fresh connection ID or timer key.
    func makeID() -> UInt64 {
        let id = self.nextID
        self.nextID += 1
        return id
    }

    private static func abandoned(_ connection: Connection) -> IOError {
        IOError(.cancelled, "The dial to \(connection.remoteAddress) was abandoned: the reactor is shutting down.")
    }
}
