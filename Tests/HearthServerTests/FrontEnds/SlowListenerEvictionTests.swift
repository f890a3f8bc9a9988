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

    @Test func listenersThatStopReadingAreEvictedWithTheirProtocolsGoodbye() async throws {
        try await TestNode.with(configure: {
            $0.outputSoftLimitBytes = 64 * 1024
            $0.outputSoftLimitSeconds = 0
        }) { node in
            let port = node.port
            let (cancel, close, delivered) = try await onDedicatedThread {
                let stalledStream = try HTTPTestClient(port: port, receiveBufferBytes: 4096)
                _ = try stalledStream.request("GET", "/feed.json", headers: [("Accept", "text/event-stream")])
                let stalledSocket = try WireTestClient(
                    port: port, target: "/.ws?v=5&ns=default", receiveBufferBytes: 4096)
                _ = try stalledSocket.call("q", #"{"p":"/feed","h":""}"#)
                let reader = try HTTPTestClient(port: port)
                _ = try reader.request("GET", "/feed.json", headers: [("Accept", "text/event-stream")])
                _ = try reader.readEvent()
                let writer = try HTTPTestClient(port: port)
                let chunk = String(repeating: "y", count: 32_000)
                var delivered = 0
                func writeOne() throws {
                    _ = try writer.request("PUT", "/feed/i\(delivered).json", body: "\"\(chunk)\"")
                    // Bounded: keep-alives alone must not hold the test forever on a machine too loaded to deliver.
                    let deadline = ContinuousClock.now + .seconds(120)
                    while try reader.readEvent().event != "put" {
                        guard ContinuousClock.now < deadline else {
                            throw TestClientError(description: "write \(delivered)'s event did not come in 120 s")
                        }
                    }
                    delivered += 1
                }
                // Writes until both stalled listeners are gone (the soft limit has no grace here).
                while delivered < 100, try Self.evictions(port: port) < 2 { try writeOne() }
                // An evicted client has the node's close timeout (2 s) to read the end of its stream: read it now.
                var event = try stalledStream.readEvent()
                while event.event == "put" { event = try stalledStream.readEvent() }
                let close = try stalledSocket.socket.readClose()
                while delivered < 100 { try writeOne() }
                return (event, close, delivered)
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
