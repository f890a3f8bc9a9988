import HearthCore
import HearthTestKit
import Testing

@testable import HearthNode
@testable import HearthServer

/// Listeners that stop reading are evicted with their protocol's goodbye once they hold too much for too long,
/// while a listener that reads gets every event; operators see it in `/.metrics`.
@Suite struct SlowListenerEvictionTests {
    /// How many listeners the node has evicted for their soft limit, from `/.metrics`.
    private static func evictions(port: Int) throws -> Int {
        let metrics = try HTTPTestClient(port: port).request("GET", "/.metrics").text
        let name = #"hearth_connections_evicted_total{reason="output_soft_limit"} "#
        guard let line = metrics.split(separator: "\n").first(where: { $0.hasPrefix(name) }) else { return 0 }
        return Int(Double(line.dropFirst(name.count)) ?? 0)
    }

    /// The test's clients, handed from one dedicated thread to the next (each is used by one thread at a time).
    private final class Clients: @unchecked Sendable {
        let stalledStream: HTTPTestClient
        let stalledSocket: WireTestClient
        let reader: HTTPTestClient
        let writer: HTTPTestClient
        var delivered = 0

        init(port: Int) throws {
            self.stalledStream = try HTTPTestClient(port: port, receiveBufferBytes: 4096)
            _ = try self.stalledStream.request("GET", "/feed.json", headers: [("Accept", "text/event-stream")])
            self.stalledSocket = try WireTestClient(
                port: port, target: "/.ws?v=5&ns=default", receiveBufferBytes: 4096)
            _ = try self.stalledSocket.call("q", #"{"p":"/feed","h":""}"#)
            self.reader = try HTTPTestClient(port: port)
            _ = try self.reader.request("GET", "/feed.json", headers: [("Accept", "text/event-stream")])
            _ = try self.reader.readEvent()
            self.writer = try HTTPTestClient(port: port)
        }

        /// Writes the next chunk and waits for the reading listener's event of it.
        func writeOne() throws {
            let chunk = String(repeating: "y", count: 32_000)
            _ = try self.writer.request("PUT", "/feed/i\(self.delivered).json", body: "\"\(chunk)\"")
            // Bounded: keep-alives alone must not hold the test forever on a machine too loaded to deliver.
            let deadline = ContinuousClock.now + .seconds(120)
            while try self.reader.readEvent().event != "put" {
                guard ContinuousClock.now < deadline else {
                    throw TestClientError(description: "write \(self.delivered)'s event did not come in 120 s")
                }
            }
            self.delivered += 1
        }
    }

    @Test func listenersThatStopReadingAreEvictedWithTheirProtocolsGoodbye() async throws {
        try await TestNode.with(configure: {
            $0.outputSoftLimitBytes = 64 * 1024
            $0.outputSoftLimitSeconds = 0
        }) { node in
            let port = node.port
            let clients = try await onDedicatedThread {
                let clients = try Clients(port: port)
                // Writes until both stalled listeners are gone (the soft limit has no grace here).
                while clients.delivered < 100, try Self.evictions(port: port) < 2 { try clients.writeOne() }
                return clients
            }
            // An evicted client has the node's close timeout (2 s) to read the end of its stream: both read it now, at
            // the same time (one after the other, the second could miss its 2 s on a loaded machine).
            async let cancelRead = onDedicatedThread {
                var event = try clients.stalledStream.readEvent()
                while event.event == "put" { event = try clients.stalledStream.readEvent() }
                return event
            }
            async let closeRead = onDedicatedThread { try clients.stalledSocket.socket.readClose() }
            let (cancel, close) = try await (cancelRead, closeRead)
            let delivered = try await onDedicatedThread {
                while clients.delivered < 100 { try clients.writeOne() }
                return clients.delivered
            }
            #expect(cancel.event == "cancel")
            #expect(cancel.data == "null")
            #expect(close.code == 1008)
            #expect(close.reason.hasPrefix("Evicted"))
            #expect(delivered == 100)
            #expect(try await onDedicatedThread { try Self.evictions(port: port) } == 2)
            let metrics = try await node.request("GET", "/.metrics").text
            #expect(metrics.contains("hearth_client_memory_bytes "))
        }
    }
}
