import HearthCore
import HearthNet
import HearthTestKit
import HearthWire
import Synchronization
import Testing

@testable import Hearth

/// The connection against a real `hearth serve` process on loopback, through a proxy that can drop it.
@Suite(.serialized) struct PersistentConnectionLoopbackTests {
    /// Every event one connection delivered, in order.
    final class EventLog: Sendable {
        private let events = Mutex<[ServerEvent]>([])

        var all: [ServerEvent] { self.events.withLock { $0 } }

        func append(_ event: ServerEvent) { self.events.withLock { $0.append(event) } }

        func count(_ matching: (ServerEvent) -> Bool) -> Int { self.all.filter(matching).count }

        func contains(_ event: ServerEvent) -> Bool { self.all.contains(event) }
    }

    private static func connection(
        port: Int,
        log: EventLog,
        configure: (inout ConnectionMachine.Configuration) -> Void = { _ in }
    ) -> PersistentConnection {
        var configuration = ConnectionMachine.Configuration(
            endpoints: [RealtimeEndpoint(host: "127.0.0.1", port: port)], namespace: "demo")
        configuration.backoff = .init(initial: .milliseconds(50), maximum: .milliseconds(200))
        configure(&configuration)
        let connection = PersistentConnection(
            configuration: configuration, onEvent: { log.append($0) })
        connection.goOnline()
        return connection
    }

    private static func isConnected(_ event: ServerEvent) -> Bool {
        if case .connected = event { return true }
        return false
    }

    private static let path = Path(keys: [Key(unchecked: "rooms")])
    private static let key = ListenKey(path: path, query: nil, tag: nil)

    /// Connect, listen, write, and hear the push and every answer; drop the connection and see the listen resumed
    /// (a later write by another client is pushed again).
    @Test func listensWritesAndResumesAfterADrop() async throws {
        let server = try await ServerProcess()
        defer { server.terminate() }
        let proxy = try FaultyTCPProxy(targetPort: server.port)
        defer { proxy.close() }
        let log = EventLog()
        let connection = Self.connection(port: proxy.port, log: log)
        defer { connection.close() }
        #expect(await eventually(seconds: 20) { log.count(Self.isConnected) == 1 })

        connection.send(.listen(Self.key, hash: ""))
        #expect(await eventually(seconds: 20) { log.contains(.listenAnswered(Self.key, .okEmpty)) })
        connection.send(.write(WriteID(1), .put(path: "/rooms/a", data: .int(1), hash: nil)))
        #expect(await eventually(seconds: 20) { log.contains(.writeAnswered(WriteID(1), .okEmpty)) })
        let pushed = log.all.contains {
            guard case .data(let path, let data, nil) = $0 else { return false }
            return Self.path.contains(path) && data.description.contains("1")
        }
        #expect(pushed)

        proxy.dropConnections()
        #expect(await eventually(seconds: 20) { log.count(Self.isConnected) == 2 })
        #expect(log.contains(.disconnected))
        #expect(await eventually(seconds: 20) { log.count { $0 == .listenAnswered(Self.key, .okEmpty) } == 2 })

        let writerLog = EventLog()
        let writer = Self.connection(port: server.port, log: writerLog)
        defer { writer.close() }
        writer.send(.write(WriteID(1), .put(path: "/rooms/b", data: .string("after"), hash: nil)))
        #expect(await eventually(seconds: 20) { writerLog.contains(.writeAnswered(WriteID(1), .okEmpty)) })
        #expect(
            await eventually(seconds: 20) {
                log.all.contains { event in
                    guard case .data(_, let data, _) = event else { return false }
                    return data.description.contains("after")
                }
            })
    }

    /// A get is answered by the server; a write larger than one frame goes out in parts and is answered.
    @Test func getsAndSplitWrites() async throws {
        let server = try await ServerProcess()
        defer { server.terminate() }
        let log = EventLog()
        let connection = Self.connection(port: server.port, log: log)
        defer { connection.close() }
        let big = String(repeating: "ab", count: 20_000)
        connection.send(.write(WriteID(1), .put(path: "/big", data: .string(big), hash: nil)))
        #expect(await eventually(seconds: 20) { log.contains(.writeAnswered(WriteID(1), .okEmpty)) })
        connection.send(.get(RequestToken(1), path: Path(keys: [Key(unchecked: "big")]), query: nil))
        #expect(
            await eventually(seconds: 20) { log.contains(.requestAnswered(RequestToken(1), .ok(.json(.string(big))))) })
    }

    /// A connection that goes silent (the network swallows everything) is noticed by the keep-alive, closed and
    /// redialled; the listen comes back with it.
    @Test func silentConnectionsAreRedialled() async throws {
        let server = try await ServerProcess()
        defer { server.terminate() }
        let proxy = try FaultyTCPProxy(targetPort: server.port)
        defer { proxy.close() }
        let log = EventLog()
        let connection = Self.connection(port: proxy.port, log: log) { configuration in
            configuration.pingAfterIdle = .milliseconds(500)
            configuration.pongTimeout = .milliseconds(500)
            configuration.handshakeTimeout = .seconds(2)
        }
        defer { connection.close() }
        connection.send(.listen(Self.key, hash: ""))
        #expect(await eventually(seconds: 20) { log.contains(.listenAnswered(Self.key, .okEmpty)) })
        proxy.setMode(.blackhole)
        let silenced = ContinuousClock.now
        #expect(await eventually(seconds: 20) { log.contains(.disconnected) })
        #expect(ContinuousClock.now - silenced < .seconds(5))
        proxy.setMode(.forward)
        #expect(await eventually(seconds: 20) { log.count { $0 == .listenAnswered(Self.key, .okEmpty) } == 2 })
    }

    /// Foundation's WebSocket task (the `wss` transport) speaks to the node over plain `ws` here, or, where
    /// Foundation's libcurl has no WebSocket support (as on the Linux Hearth is tested on), fails with a clear
    /// `unsupported` error.
    @Test func urlSessionTransportConnectsOrSaysWhyNot() async throws {
        let server = try await ServerProcess()
        defer { server.terminate() }
        let endpoint = RealtimeEndpoint(host: "127.0.0.1", port: server.port)
        let transport = URLSessionTransport(url: endpoint.url(namespace: "demo", lastSessionID: nil))
        let events = Mutex<[RealtimeTransportEvent]>([])
        transport.start { event in events.withLock { $0.append(event) } }
        #expect(await eventually(seconds: 20) { !events.withLock { $0.isEmpty } })
        switch events.withLock({ $0.first }) {
        case .opened:
            #expect(await eventually(seconds: 20) { events.withLock { $0.count } >= 2 })
            guard case .text(let handshake)? = events.withLock({ $0.dropFirst().first }) else {
                Issue.record("expected the handshake, got \(events.withLock { $0 })")
                return
            }
            #expect(handshake.contains(#""t":"h""#))
            transport.close()
        case .closed(let error?):
            #expect(error.code == .unsupported)
            #expect(error.message.contains("libcurl"))
        default:
            Issue.record("unexpected events \(events.withLock { $0 })")
        }
    }
}
