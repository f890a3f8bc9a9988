import HearthCore
import HearthTestKit
import Testing

@testable import HearthServer

/// Listeners that stop reading are evicted with their protocol's goodbye once they hold too much for too long,
/// while a listener that reads gets every event; operators see it in `/.metrics`.
@Suite struct SlowListenerEvictionTests {
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
                for index in 0..<100 {
                    _ = try writer.request("PUT", "/feed/i\(index).json", body: "\"\(chunk)\"")
                    while try reader.readEvent().event != "put" {}
                    delivered += 1
                }
                var event = try stalledStream.readEvent()
                while event.event == "put" { event = try stalledStream.readEvent() }
                return (event, try stalledSocket.socket.readClose(), delivered)
            }
            #expect(cancel.event == "cancel")
            #expect(cancel.data == "null")
            #expect(close.code == 1008)
            #expect(close.reason.hasPrefix("Evicted"))
            #expect(delivered == 100)
            let metrics = try await node.request("GET", "/.metrics").text
            #expect(metrics.contains(#"hearth_connections_evicted_total{reason="output_soft_limit"} 2"#))
            #expect(metrics.contains("hearth_client_memory_bytes "))
        }
    }
}
