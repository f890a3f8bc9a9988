import Glibc
import HearthCore
import HearthSystem
import HearthTestKit
import HearthWire
import Testing

@testable import Hearth

/// The connection's shell over a fake transport: the order of events, commands from inside an event, closing from
/// another thread, and the keep-alive's wake-ups.
@Suite struct PersistentConnectionTests {
    /// A transport the test plays the server through: it records what the connection sent and reports what the
    /// test says arrived.
    final class FakeTransport: RealtimeTransport {
        private let state = Lock<(events: (@Sendable (RealtimeTransportEvent) -> Void)?, sent: [Sent])>((nil, []))

        /// One frame sent, and when.
        struct Sent: Sendable {
            var frame: String
            var at: ContinuousClock.Instant
        }

        func start(events: @escaping @Sendable (RealtimeTransportEvent) -> Void) {
            self.state.withLock { $0.events = events }
        }

        func send(text: String) { self.state.withLock { $0.sent.append(Sent(frame: text, at: .now)) } }

        func close() {}

        var sent: [String] { self.state.withLock { $0.sent.map(\.frame) } }

        /// When each ping went out.
        var pings: [ContinuousClock.Instant] {
            self.state.withLock { $0.sent.filter { PersistentConnectionTests.isPing($0.frame) }.map(\.at) }
        }

        var isStarted: Bool { self.state.withLock { $0.events != nil } }

        /// Reports `event` as the transport would, on the calling thread.
        func report(_ event: RealtimeTransportEvent) {
            self.state.withLock { $0.events }?(event)
        }

        func receive(_ message: WireServerMessage) {
            self.report(.text(String(decoding: message.encoded(), as: UTF8.self)))
        }

        /// Opens and plays the server's handshake.
        func handshake() {
            self.report(.opened)
            self.receive(.handshake(WireHandshake(timestamp: 1_700_000_000_000, host: "h", sessionID: "s1")))
        }
    }

    /// Every event delivered, in order.
    final class Events: Sendable {
        private let events = Lock<[ServerEvent]>([])

        func append(_ event: ServerEvent) { self.events.withLock { $0.append(event) } }

        var all: [ServerEvent] { self.events.withLock { $0 } }
    }

    private static func connection(
        transport: FakeTransport,
        configure: (inout ConnectionMachine.Configuration) -> Void = { _ in },
        onEvent: @escaping @Sendable (ServerEvent) -> Void
    ) -> PersistentConnection {
        var configuration = ConnectionMachine.Configuration(
            endpoints: [RealtimeEndpoint(host: "127.0.0.1", port: 9000)], namespace: "demo")
        configure(&configuration)
        return PersistentConnection(
            configuration: configuration, makeTransport: { _, _ in transport }, onEvent: onEvent)
    }

    static func isPing(_ frame: String) -> Bool { frame == #"{"d":{"d":{},"t":"p"},"t":"c"}"# }

    private static func isConnected(_ event: ServerEvent) -> Bool {
        if case .connected = event { return true }
        return false
    }

    /// Events reach `onEvent` in order, and a command sent from inside it goes out after the event's own actions:
    /// the write made on `connected` is sent once, and its answer is the next event.
    @Test func eventsArriveInOrderAndAHandlerMaySend() {
        let transport = FakeTransport()
        let events = Events()
        let holder = Lock<PersistentConnection?>(nil)
        let connection = Self.connection(transport: transport) { event in
            events.append(event)
            if Self.isConnected(event) {
                holder.withLock { $0 }?.send(.write(WriteID(1), .put(path: "/a", data: .int(1), hash: nil)))
            }
        }
        holder.withLock { $0 = connection }
        defer {
            connection.close()
            holder.withLock { $0 = nil }
        }
        connection.goOnline()
        #expect(transport.isStarted)
        transport.handshake()
        let requests = transport.sent.compactMap { frame -> Int64? in
            guard case .request(let id, .put)? = try? WireClientMessage(decoding: frame) else {
                return nil
            }
            return id
        }
        #expect(requests.count == 1)
        transport.receive(.response(id: requests.first ?? -1, .okEmpty))
        let delivered = events.all
        #expect(delivered.count == 2)
        #expect(delivered.first.map(Self.isConnected) == true)
        #expect(delivered.last == .writeAnswered(WriteID(1), .okEmpty))
    }

    /// `close()` from another thread returns only once an event being delivered has returned, and nothing is
    /// delivered after it.
    @Test func closeWaitsForTheEventBeingDelivered() async throws {
        let transport = FakeTransport()
        let events = Events()
        let inHandler = Flag()
        let release = Flag()
        let connection = Self.connection(transport: transport) { event in
            inHandler.set()
            while !release.isSet { sched_yield() }
            events.append(event)
        }
        connection.goOnline()
        let server = try DedicatedThread.start(name: "server") { transport.handshake() }
        #expect(await eventually(seconds: 10) { inHandler.isSet })
        let releaser = try DedicatedThread.start(name: "releaser") {
            usleep(50_000)
            release.set()
        }
        connection.close()
        #expect(events.all.count == 1)
        server.join()
        releaser.join()
        transport.receive(.pong)
        transport.report(.closed(nil))
        #expect(events.all.count == 1)
    }

    /// With the server quiet, the keep-alive pings — no sooner than `pingAfterIdle` after the last frame, although
    /// the wake-up asked for after the handshake came before it. The handshake and pong timeouts are far longer than
    /// the test, so a test process starved of CPU for seconds (a full suite starting dozens of nodes on two cores)
    /// cannot see the connection dropped and redialled between its steps, which would leave nothing to ping.
    @Test func aQuietConnectionPingsAfterTheIdleTimeFromTheLastFrame() async {
        let transport = FakeTransport()
        let connection = Self.connection(
            transport: transport,
            configure: {
                $0.pingAfterIdle = .milliseconds(300)
                $0.pongTimeout = .seconds(120)
                $0.handshakeTimeout = .seconds(120)
            }, onEvent: { _ in })
        defer { connection.close() }
        connection.goOnline()
        transport.handshake()
        try? await Task.sleep(for: .milliseconds(150))
        let beforeFrame = ContinuousClock.now
        transport.receive(.pong)
        let afterFrame = ContinuousClock.now
        #expect(await eventually(seconds: 10) { transport.pings.contains { $0 > afterFrame } })
        let next = transport.pings.filter { $0 > afterFrame }.min()
        #expect(next.map { $0 - beforeFrame >= .milliseconds(300) } == true)
    }
}
