import HearthSystem
import Synchronization

/// A reactor running on its own thread, as the rest of the process sees it: start it (optionally with a listener),
/// dial out from it, send messages to its connections, and shut it down gracefully.
///
/// The reactor itself is confined to its thread; this handle only talks to it through the inbox, so it is safe to
/// use from any thread or task. `HTTPServer` runs one; a node's peer transport can run another.
package final class EventLoop: Sendable {
    /// The limits every connection of the loop shares.
    package struct Configuration: Sendable {
        /// The most bytes queued for one connection before it is closed as a consumer that cannot keep up.
        package var outboundBufferLimit = 64 * 1024 * 1024
        /// Accepted connections beyond this many open connections are closed at once.
        package var maximumConnections = 50_000
        /// How long accepting pauses after `accept` runs out of descriptors, unless a connection closes sooner.
        package var acceptBackoff: Duration = .milliseconds(100)
        /// Threads besides the loop's that send when one batch flushes many connections (`SendHelpers`).
        package var sendHelpers = 0
        /// The fewest connections in one batch the send helpers share (`Reactor.Settings.parallelFlushMinimum`).
        package var parallelFlushMinimum = Reactor.defaultParallelFlushMinimum

        package init() {}
    }

    let inbox: ReactorInbox
    private let thread: Mutex<DedicatedThread?>
    private let counters: NetworkCounters
    private let isJoined = Atomic<Bool>(false)

    /// Starts a loop that serves `listener` (if any) and can dial out.
    ///
    /// - Throws: `IOError` when epoll, the eventfd or the thread cannot be created; the listener is closed then.
    package convenience init(configuration: Configuration = Configuration(), listener: Listener? = nil) throws(IOError)
    {
        let settings = Reactor.Settings(
            outboundBufferLimit: configuration.outboundBufferLimit,
            maximumConnections: configuration.maximumConnections,
            acceptBackoff: configuration.acceptBackoff.reactorNanoseconds,
            sendHelpers: configuration.sendHelpers,
            parallelFlushMinimum: configuration.parallelFlushMinimum
        )
        try self.init(settings: settings, counters: NetworkCounters(), listener: listener, stopped: {})
    }

    /// Starts a loop with counters the caller reads (the server's statistics), and `stopped`, called on the reactor
    /// thread once the loop has stopped and closed every connection.
    init(
        settings: Reactor.Settings,
        counters: NetworkCounters,
        listener: Listener?,
        stopped: @escaping @Sendable () -> Void
    ) throws(IOError) {
        let reactor: Reactor
        do {
            reactor = try Reactor(settings: settings, counters: counters, listener: listener, stopped: stopped)
        } catch {
            if let listener { Syscall.close(listener.descriptor) }
            throw error
        }
        self.inbox = reactor.inbox
        self.counters = counters
        do {
            self.thread = Mutex(try reactor.startThread())
        } catch {
            reactor.tearDown()
            throw error
        }
    }

    /// Live counters: accepted and open connections (dialed ones included), bytes read and written, accept failures.
    package var statistics: NetworkStatistics { self.counters.snapshot }

    /// Dials `address` once; `makeHandler` runs on the reactor thread and its handler hears `connectionOpened`, or
    /// `connectFailed` with a typed `IOError` (refused, unreachable, or not connected within `timeout`). When the
    /// loop has already stopped, a handler is made and told so on the calling thread. For a connection that is
    /// kept up across failures, use a `Dialer`.
    package func connect(
        to address: SocketAddress,
        timeout: Duration,
        makeHandler: @escaping @Sendable () -> any ConnectionHandler
    ) {
        let nanoseconds = timeout.reactorNanoseconds
        self.execute(
            ReactorWork(
                body: { reactor in reactor.connect(to: address, timeout: nanoseconds, handler: makeHandler()) },
                refused: {
                    makeHandler().connectFailed(
                        IOError(.cancelled, "The dial to \(address) was not started: the event loop has stopped.")
                    )
                }
            )
        )
    }

    /// Hands `message` to the handler of connection `connectionID` on the reactor thread, or discards it when that
    /// connection is gone.
    package func send(_ message: any ConnectionMessage, to connectionID: UInt64) {
        self.inbox.send(.message(connectionID: connectionID, message))
    }

    /// Graceful shutdown, step 1: stop accepting, dialing and reconnecting; each connection's handler winds down.
    package func drain() {
        self.inbox.send(.drain)
    }

    /// Stops the loop gracefully: drains, gives connections until `gracePeriod` to flush and close, closes the rest,
    /// and waits for the thread to end. Later calls return at once.
    ///
    /// - Throws: the `IOError` that stopped the loop early, if epoll failed.
    package func shutdown(gracePeriod: Duration = .seconds(5)) async throws(IOError) {
        self.drain()
        await self.finish(deadline: MonotonicClock.now() &+ gracePeriod.reactorNanoseconds)
        if let failure = self.join() { throw failure }
    }

    /// Graceful shutdown, step 2: returns once every connection has closed or `deadline` (monotonic nanoseconds)
    /// has passed, and the loop has released everything.
    func finish(deadline: UInt64) async {
        await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
            self.inbox.send(.finish(deadline: deadline, finished))
        }
    }

    /// Waits for the reactor thread to end (only the first call waits); returns why the loop failed, if it did.
    func join() -> IOError? {
        self.thread.withLock { $0.take() }?.join()
        return self.inbox.failure
    }

    func execute(_ work: ReactorWork) {
        self.inbox.send(.execute(work))
    }
}
