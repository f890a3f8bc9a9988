import HearthSystem
import Synchronization

/// Keeps one logical connection to a peer up: dials it on an `EventLoop`, and after every failed dial or closed
/// connection waits a `Backoff` delay and dials again, until stopped.
///
/// Each connection gets a fresh handler from `makeHandler` (on the reactor thread), which sees an ordinary
/// connection: `connectionOpened`, bytes, `connectionClosed`, or `connectFailed` for a dial that did not connect.
/// What happens is also reported on `events`, in order, ending with `.stopped`. The dialer stops when `stop()` is
/// called, when the event loop drains, or when its last reference goes away.
package final class Dialer: Sendable {
    /// How a dialer dials and waits.
    package struct Configuration: Sendable {
        /// How long one dial may take before it counts as failed (`IOError.Code.timedOut`).
        package var connectTimeout: Duration = .seconds(5)
        /// The delays between attempts; reset as `reset` says.
        package var backoff = Backoff()
        /// When the back-off starts over: when a dial connects, or only once the handler confirms the connection.
        package var reset = BackoffReset.onConnect

        package init(
            connectTimeout: Duration = .seconds(5), backoff: Backoff = Backoff(), reset: BackoffReset = .onConnect
        ) {
            self.connectTimeout = connectTimeout
            self.backoff = backoff
            self.reset = reset
        }
    }

    /// When a dialer's back-off starts over (`Configuration.reset`).
    package enum BackoffReset: Sendable, Hashable {
        /// As soon as a dial connects.
        case onConnect
        /// Only when the connection's handler calls `Connection.confirmDial()`, after its protocol's handshake: a
        /// peer that accepts each connection and then refuses it (another cluster secret, a release too old) is
        /// redialled less and less often instead of after the initial delay every time.
        case onConfirmation
    }

    /// What the dialer did, for logs, metrics and tests.
    package enum Event: Sendable, Hashable {
        /// A connection is up.
        case connected
        /// A dial failed; the next one starts after `retryAfter`.
        case connectFailed(IOError, retryAfter: Duration)
        /// The connection that was up closed (`error` when it failed); the next dial starts after `retryAfter`.
        case disconnected(IOError?, retryAfter: Duration)
        /// The dialer will dial no more; the last event.
        case stopped
    }

    /// Where the dialer connects.
    package let address: SocketAddress
    /// Everything the dialer does, in order, ending with `.stopped`.
    package let events: AsyncStream<Event>
    private let id: UInt64
    private let loop: EventLoop

    private static let nextID = Atomic<UInt64>(1)

    /// Starts dialing `address` at once.
    ///
    /// - Parameters:
    ///   - random: draws the back-off's jitter; pass a seeded generator for a repeatable schedule.
    ///   - makeHandler: called on the reactor thread for each dial.
    package init(
        connectingTo address: SocketAddress,
        on loop: EventLoop,
        configuration: Configuration = Configuration(),
        random: some RandomNumberGenerator & Sendable = SystemRandomNumberGenerator(),
        makeHandler: @escaping @Sendable () -> any ConnectionHandler
    ) {
        let (events, continuation) = AsyncStream.makeStream(of: Event.self)
        let id = Self.nextID.add(1, ordering: .relaxed).oldValue
        self.address = address
        self.events = events
        self.id = id
        self.loop = loop
        loop.execute(
            ReactorWork(
                body: { reactor in
                    let core = DialerCore(
                        id: id,
                        address: address,
                        configuration: configuration,
                        random: random,
                        makeHandler: makeHandler,
                        events: continuation,
                        reactor: reactor
                    )
                    reactor.dialers[id] = core
                    core.start()
                },
                refused: {
                    continuation.yield(.stopped)
                    continuation.finish()
                }
            )
        )
    }

    deinit {
        self.stop()
    }

    /// Stops reconnecting and closes the connection (after flushing what is queued), or abandons the dial in
    /// progress. Later calls do nothing.
    package func stop() {
        let id = self.id
        self.loop.execute(ReactorWork(body: { reactor in reactor.dialers[id]?.stop() }, refused: {}))
    }
}
