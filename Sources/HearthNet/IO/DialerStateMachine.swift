/// The reconnect policy of a `Dialer` as a pure state machine: connect, and after every failure or close wait a
/// back-off delay and connect again, until stopped.
///
/// No I/O, clock or hidden randomness: each event returns what the shell must do, and the random number generator
/// for the back-off's jitter is passed in. The back-off resets when a connection comes up (or, with
/// `Dialer.BackoffReset.onConfirmation`, once its handler confirms the protocol's handshake), so a peer that restarts
/// is redialled after the short initial delay, while a peer that stays down, or accepts and then refuses every
/// connection, is tried less and less often.
struct DialerStateMachine {
    enum State: Equatable {
        /// Not started.
        case idle
        /// A dial is in progress.
        case connecting
        /// The connection is up.
        case connected
        /// Waiting for the retry timer.
        case waiting
        /// Stopped for good.
        case stopped
    }

    /// What the shell must do after an event.
    enum Action: Equatable {
        /// Dial the peer.
        case connect
        /// Dial again after this delay.
        case retry(after: Duration)
        /// Close the connection in progress or up (it will not be replaced).
        case closeConnection
        /// Cancel the retry timer.
        case cancelRetry
        case none
    }

    private(set) var state = State.idle
    private(set) var backoff: Backoff
    /// When the back-off starts over.
    let reset: Dialer.BackoffReset

    init(backoff: Backoff, reset: Dialer.BackoffReset = .onConnect) {
        self.backoff = backoff
        self.reset = reset
    }

    /// The first dial.
    mutating func start() -> Action {
        guard self.state == .idle else { return .none }
        self.state = .connecting
        return .connect
    }

    /// The dial in progress connected; with `.onConnect` the back-off starts over.
    mutating func connected() {
        guard self.state == .connecting else { return }
        self.state = .connected
        if self.reset == .onConnect { self.backoff.reset() }
    }

    /// The handler of the connection that is up confirmed it (its handshake passed): the back-off starts over.
    mutating func confirmed() {
        guard self.state == .connected else { return }
        self.backoff.reset()
    }

    /// The dial failed, or the connection closed: wait, then dial again.
    mutating func connectionEnded(using random: inout some RandomNumberGenerator) -> Action {
        switch self.state {
        case .connecting, .connected:
            self.state = .waiting
            return .retry(after: self.backoff.nextDelay(using: &random))
        case .idle, .waiting, .stopped:
            return .none
        }
    }

    /// The retry timer fired.
    mutating func retryTimerFired() -> Action {
        guard self.state == .waiting else { return .none }
        self.state = .connecting
        return .connect
    }

    /// No more connections: close the current one, or cancel the pending retry.
    mutating func stop() -> Action {
        let previous = self.state
        self.state = .stopped
        switch previous {
        case .connecting, .connected: return .closeConnection
        case .waiting: return .cancelRetry
        case .idle, .stopped: return .none
        }
    }
}
