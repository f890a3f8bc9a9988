import HearthNet
import Synchronization

/// What the raw connections of one test side saw, shared between the reactor thread and the test.
final class ConnectionLog: Sendable {
    struct State {
        var opened = 0
        /// Every byte received on any of the side's connections, in order.
        var received: [UInt8] = []
        /// One entry per closed connection, with its error.
        var closes: [IOError?] = []
        /// One entry per dial that failed.
        var failures: [IOError] = []
        /// The writers of opened connections, in order.
        var writers: [ConnectionWriter] = []
    }

    private let state = Mutex(State())

    var snapshot: State { self.state.withLock { $0 } }

    var receivedText: String { String(decoding: self.snapshot.received, as: UTF8.self) }

    func update(_ body: (inout State) -> Void) {
        self.state.withLock { body(&$0) }
    }

    /// Polls until `predicate` holds or `seconds` pass.
    func wait(seconds: Double = 2, until predicate: (State) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            if predicate(self.snapshot) { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return predicate(self.snapshot)
    }
}

/// A protocol-free handler for reactor tests: records into a `ConnectionLog`, sends `greeting` when the connection
/// opens, echoes what it receives when asked to, and closes at once the first `closeFirst` connections it opens.
final class RecordingConnectionHandler: ConnectionHandler {
    struct Behaviour: Sendable {
        var greeting: [UInt8] = []
        var isEcho = false
        /// How many of the side's first connections to close as soon as they open (shared through the log).
        var closeFirst = 0
        /// Pause reading after the first bytes arrive, until a `ResumeReading` message comes.
        var pausesAfterFirstRead = false
    }

    /// Tells a handler to read again.
    struct ResumeReading: ConnectionMessage {
        func discard() {}
    }

    private let log: ConnectionLog
    private let behaviour: Behaviour

    init(log: ConnectionLog, behaviour: Behaviour = Behaviour()) {
        self.log = log
        self.behaviour = behaviour
    }

    /// A handler factory for `Listener`, `EventLoop.connect` and `Dialer`.
    static func factory(
        _ log: ConnectionLog,
        _ behaviour: Behaviour = Behaviour()
    ) -> @Sendable () -> any ConnectionHandler {
        { RecordingConnectionHandler(log: log, behaviour: behaviour) }
    }

    func connectionOpened(_ connection: Connection) {
        var number = 0
        self.log.update { state in
            state.opened += 1
            number = state.opened
            state.writers.append(connection.writer)
        }
        if number <= self.behaviour.closeFirst {
            connection.close()
            return
        }
        guard !self.behaviour.greeting.isEmpty else { return }
        connection.enqueue(self.behaviour.greeting)
        connection.flush()
    }

    func connectFailed(_ error: IOError) {
        self.log.update { $0.failures.append(error) }
    }

    func received(_ bytes: UnsafeRawBufferPointer, on connection: Connection) {
        let bytes = Array(bytes)
        self.log.update { $0.received += bytes }
        if self.behaviour.pausesAfterFirstRead { connection.pauseReading() }
        guard self.behaviour.isEcho else { return }
        connection.enqueue(bytes)
        connection.flush()
    }

    func handle(_ message: any ConnectionMessage, on connection: Connection) {
        guard message is ResumeReading else { return message.discard() }
        connection.resumeReading()
    }

    func connectionClosed(_ connection: Connection, error: IOError?) {
        self.log.update { $0.closes.append(error) }
    }
}

/// Runs `body` with a fresh event loop (serving `listener`, if any), then shuts the loop down gracefully.
func withEventLoop<Result: Sendable>(
    listener: Listener? = nil,
    _ body: (EventLoop) async throws -> Result
) async throws -> Result {
    let loop = try EventLoop(listener: listener)
    do {
        let result = try await body(loop)
        try await loop.shutdown(gracePeriod: .seconds(1))
        return result
    } catch {
        try? await loop.shutdown(gracePeriod: .seconds(1))
        throw error
    }
}

/// A loopback listener whose connections are recorded into `log`.
func recordingListener(
    _ log: ConnectionLog,
    host: String = "127.0.0.1",
    _ behaviour: RecordingConnectionHandler.Behaviour = .init()
) throws -> Listener {
    try Listener(
        address: SocketAddress(host: host, port: 0), makeHandler: RecordingConnectionHandler.factory(log, behaviour))
}
