import Dispatch
import Foundation
import HearthSystem

/// The client's connection to the database, running: the thin shell that drives a `ConnectionMachine` with a real
/// clock and real transports.
///
/// Commands (`send`), `goOnline` / `goOffline` and everything the transports report go through one `InlineQueue`
/// and are fed to the machine one at a time, on the thread that brought them when nothing else is running (a frame
/// on the client reactor's thread, a command on the caller's); its actions open, feed and close transports and
/// deliver `ServerEvent`s to the one `onEvent` callback, in order and never two at once, on whichever thread runs
/// the queue, so `onEvent` must be quick and must not block (the client library's `Repo` only queues each event for
/// its own queue). The clock is `ContinuousClock`, which keeps counting while the computer sleeps, and wake-ups are
/// wall-clock deadlines, so after a sleep the keep-alive runs at once and a dead connection is noticed within
/// `pongTimeout`. It starts offline: call `goOnline()` to connect.
package final class PersistentConnection: Sendable {
    private let queue = InlineQueue(label: "hearth.connection")
    private let state: Lock<State>
    private let makeTransport: RealtimeTransportFactory
    private let onEvent: @Sendable (ServerEvent) -> Void
    private let log: @Sendable (String) -> Void
    private let origin = ContinuousClock.now

    private struct State {
        var machine: ConnectionMachine
        var transports: [UInt64: any RealtimeTransport] = [:]
        /// The wake-up asked for and not yet run: its number (bumped for each, so only the latest one ticks) and
        /// the machine's deadline it is for. A later deadline leaves it be (the machine's deadlines move later with
        /// every frame received, and re-arming a dispatch timer per frame cost a tenth of the client's CPU); the
        /// tick then finds nothing due and asks again.
        var armedWake: (number: UInt64, deadline: Duration)?
        var wakeNumber: UInt64 = 0
        var isClosed = false
    }

    /// - Parameters:
    ///   - configuration: the nodes, the namespace and the timings.
    ///   - makeTransport: makes each attempt's transport; by default `ws` uses our `WebSocketTransport` and `wss`
    ///     the `URLSessionTransport`.
    ///   - log: hears why connections dropped and what the server complained about.
    ///   - onEvent: hears every `ServerEvent`, in order, on the connection's queue.
    package init(
        configuration: ConnectionMachine.Configuration,
        makeTransport: @escaping RealtimeTransportFactory = PersistentConnection.defaultTransport,
        random: some RandomNumberGenerator & Sendable = SystemRandomNumberGenerator(),
        log: @escaping @Sendable (String) -> Void = { _ in },
        onEvent: @escaping @Sendable (ServerEvent) -> Void
    ) {
        self.state = Lock(State(machine: ConnectionMachine(configuration: configuration, random: random)))
        self.makeTransport = makeTransport
        self.onEvent = onEvent
        self.log = log
    }

    /// Hands one command to the connection.
    package func send(_ command: ServerCommand) {
        self.run { machine, now in machine.handle(command, at: now) }
    }

    /// Connects, and keeps reconnecting.
    package func goOnline() {
        self.run { machine, now in machine.goOnline(at: now) }
    }

    /// Disconnects and stays offline until `goOnline()`.
    package func goOffline() {
        self.run { machine, now in machine.goOffline(at: now) }
    }

    /// Goes offline for good: the transport is closed and no more events are delivered once this returns (it may
    /// be called from `onEvent` too; from another thread it waits for an event being delivered to return).
    package func close() {
        self.closeTransports()
        self.queue.waitUntilIdle()
    }

    deinit {
        self.closeTransports()
    }

    private func closeTransports() {
        let transports: [any RealtimeTransport] = self.state.withLock { state in
            guard !state.isClosed else { return [] }
            state.isClosed = true
            let transports = Array(state.transports.values)
            state.transports = [:]
            return transports
        }
        for transport in transports { transport.close() }
    }

    /// `ws` through our own client, `wss` through Foundation's.
    package static let defaultTransport: RealtimeTransportFactory = { endpoint, target in
        endpoint.isSecure
            ? URLSessionTransport(url: endpoint.url(target: target))
            : WebSocketTransport(endpoint: endpoint, target: target)
    }

    /// Runs one machine input on the queue and carries out its actions.
    private func run(
        _ input: @escaping @Sendable (inout ConnectionMachine, ConnectionTime) -> [ConnectionMachine.Action]
    ) {
        guard !self.state.withLock({ $0.isClosed }) else { return }
        self.queue.async {
            let now = self.now()
            let actions: [ConnectionMachine.Action]? = self.state.withLock { state in
                state.isClosed ? nil : input(&state.machine, now)
            }
            guard let actions else { return }
            self.perform(actions, at: now)
        }
    }

    private func perform(_ actions: [ConnectionMachine.Action], at now: ConnectionTime) {
        for action in actions {
            guard !self.state.withLock({ $0.isClosed }) else { return }
            switch action {
            case .openTransport(let attempt, let endpoint, let target):
                let transport = self.makeTransport(endpoint, target)
                self.state.withLock { $0.transports[attempt] = transport }
                transport.start { [weak self] event in self?.transportEvent(event, attempt: attempt) }
            case .send(let attempt, let frame):
                self.state.withLock { $0.transports[attempt] }?.send(text: frame)
            case .closeTransport(let attempt):
                self.state.withLock { $0.transports.removeValue(forKey: attempt) }?.close()
            case .event(let event):
                self.onEvent(event)
            case .log(let message):
                self.log(message)
            }
        }
        self.scheduleWake(now: now)
    }

    private func transportEvent(_ event: RealtimeTransportEvent, attempt: UInt64) {
        self.run { machine, now in
            switch event {
            case .opened: machine.transportOpened(attempt: attempt, at: now)
            case .text(let text): machine.transportReceived(text: text, attempt: attempt, at: now)
            case .closed(let error): machine.transportClosed(attempt: attempt, error: error, at: now)
            }
        }
        if case .closed = event {
            self.queue.async { _ = self.state.withLock { $0.transports.removeValue(forKey: attempt) } }
        }
    }

    /// Asks for a tick at the machine's next deadline, as a wall-clock deadline (which fires at once after a sleep),
    /// unless one is already asked for at or before it.
    private func scheduleWake(now: ConnectionTime) {
        let wake: (number: UInt64, delay: Duration)? = self.state.withLock { state in
            guard !state.isClosed, let deadline = state.machine.nextWake else { return nil }
            if let armed = state.armedWake, armed.deadline <= deadline { return nil }
            state.wakeNumber += 1
            state.armedWake = (state.wakeNumber, deadline)
            return (state.wakeNumber, max(.zero, deadline - now.monotonic))
        }
        guard let wake else { return }
        let nanoseconds =
            Int(wake.delay.components.seconds) * 1_000_000_000
            + Int(wake.delay.components.attoseconds / 1_000_000_000)
        self.queue.spare.asyncAfter(wallDeadline: .now() + .nanoseconds(nanoseconds)) { [weak self] in
            guard let self else { return }
            let isLatest = self.state.withLock { state in
                guard state.armedWake?.number == wake.number else { return false }
                state.armedWake = nil
                return true
            }
            if isLatest { self.run { machine, now in machine.tick(at: now) } }
        }
    }

    private func now() -> ConnectionTime {
        ConnectionTime(
            monotonic: ContinuousClock.now - self.origin,
            unixMilliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded())
        )
    }
}
