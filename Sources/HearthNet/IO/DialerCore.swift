/// The reactor-side shell of a `Dialer`: carries out what its `DialerStateMachine` decides with the reactor's
/// dials and timers, and reports each step on the dialer's event stream.
///
/// Confined to the reactor thread, which keeps it in `Reactor.dialers` until it stops.
final class DialerCore {
    let id: UInt64
    let address: SocketAddress
    private let connectTimeout: UInt64
    private var machine: DialerStateMachine
    private var random: any RandomNumberGenerator & Sendable
    private let makeHandler: @Sendable () -> any ConnectionHandler
    private let events: AsyncStream<Dialer.Event>.Continuation
    private unowned let reactor: Reactor
    /// The dial in progress, or the connection that is up.
    private var connection: Connection?
    private var retryTimer: UInt64?

    init(
        id: UInt64,
        address: SocketAddress,
        configuration: Dialer.Configuration,
        random: any RandomNumberGenerator & Sendable,
        makeHandler: @escaping @Sendable () -> any ConnectionHandler,
        events: AsyncStream<Dialer.Event>.Continuation,
        reactor: Reactor
    ) {
        self.id = id
        self.address = address
        self.connectTimeout = configuration.connectTimeout.reactorNanoseconds
        self.machine = DialerStateMachine(backoff: configuration.backoff, reset: configuration.reset)
        self.random = random
        self.makeHandler = makeHandler
        self.events = events
        self.reactor = reactor
    }

    func start() {
        guard !self.reactor.isDraining else {
            self.stop()
            return
        }
        self.perform(self.machine.start())
    }

    func stop() {
        let action = self.machine.stop()
        self.reactor.dialers[self.id] = nil
        self.perform(action)
        self.events.yield(.stopped)
        self.events.finish()
    }

    /// The dial connected (called by `DialedConnectionHandler`).
    func opened(_ connection: Connection) {
        self.machine.connected()
        self.events.yield(.connected)
    }

    /// The handler confirmed the connection that is up (called by `DialedConnectionHandler`).
    func confirmed() {
        self.machine.confirmed()
    }

    /// The dial failed, or the connection closed (called by `DialedConnectionHandler`).
    func ended(error: IOError?, wasConnected: Bool) {
        self.connection = nil
        guard !self.reactor.isDraining else {
            if self.machine.state != .stopped { self.stop() }
            return
        }
        let action = self.machine.connectionEnded(using: &self.random)
        guard case .retry(let delay) = action else { return }
        if wasConnected {
            self.events.yield(.disconnected(error, retryAfter: delay))
        } else {
            let failure = error ?? IOError(.cancelled, "The dial to \(self.address) ended without connecting.")
            self.events.yield(.connectFailed(failure, retryAfter: delay))
        }
        self.perform(action)
    }

    private func perform(_ action: DialerStateMachine.Action) {
        switch action {
        case .connect:
            let handler = DialedConnectionHandler(inner: self.makeHandler(), core: self)
            let connection = self.reactor.connect(to: self.address, timeout: self.connectTimeout, handler: handler)
            if self.machine.state == .connecting { self.connection = connection }
        case .retry(let delay):
            self.retryTimer = self.reactor.schedule(after: delay.reactorNanoseconds) { [weak self] in
                guard let self else { return }
                self.retryTimer = nil
                self.perform(self.machine.retryTimerFired())
            }
        case .closeConnection:
            guard let connection = self.connection else { return }
            self.connection = nil
            if connection.state == .connecting {
                self.reactor.close(
                    connection,
                    error: IOError(.cancelled, "The dial to \(self.address) was abandoned: the dialer was stopped.")
                )
            } else {
                connection.closeAfterFlush()
            }
        case .cancelRetry:
            if let retryTimer { self.reactor.cancelScheduled(retryTimer) }
            self.retryTimer = nil
        case .none:
            break
        }
    }
}
