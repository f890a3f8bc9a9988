import HearthCore
import HearthTestKit
import Testing

@testable import HearthServer

/// Realtime requests are visible to operators in `/.metrics`.
@Suite struct WireMetricsTests {
    @Test func answeredRequestsAreCountedByActionAndStatus() async throws {
        try await TestNode.with { node in
            try await onDedicatedThread {
                let client = try WireTestClient(port: node.port)
                _ = try client.call("p", #"{"p":"/m","d":1}"#)
                _ = try client.call("p", #"{"p":"/m","d":2,"h":"stale"}"#)
                _ = try client.call("g", #"{"p":"/m","q":{}}"#)
                _ = try client.call("zz", "{}")
            }
            let metrics = try await node.request("GET", "/.metrics").text
            #expect(metrics.contains(#"hearth_wire_requests_total{action="p",status="ok"} 1"#))
            #expect(metrics.contains(#"hearth_wire_requests_total{action="p",status="datastale"} 1"#))
            #expect(metrics.contains(#"hearth_wire_requests_total{action="g",status="ok"} 1"#))
            #expect(metrics.contains(#"hearth_wire_requests_total{action="other",status="invalid_request"} 1"#))
            #expect(!metrics.contains("zz"))
            #expect(metrics.contains(#"hearth_wire_request_duration_seconds_count{action="p"} 2"#))
            #expect(metrics.contains("hearth_wire_sessions"))
        }
    }
}

/// Names a client invents never become metric labels: each would be kept for the process's life.
@Suite struct MetricLabelBoundsTests {
    /// Unknown realtime actions and HTTP methods are all counted under one `other` label.
    @Test func unknownActionsAndMethodsShareTheOtherLabel() async throws {
        try await TestNode.with { node in
            try await onDedicatedThread {
                let client = try WireTestClient(port: node.port)
                for index in 0..<20 { _ = try client.call("invented\(index)", "{}") }
            }
            for index in 0..<5 { _ = try await node.request("BREW\(index)", "/x.json") }
            let metrics = try await node.request("GET", "/.metrics").text
            #expect(metrics.contains(#"hearth_wire_requests_total{action="other",status="invalid_request"} 20"#))
            #expect(!metrics.contains("invented"))
            #expect(metrics.contains(#"hearth_http_requests_total{method="other""#))
            #expect(!metrics.contains("BREW"))
        }
    }
}

/// Connections that can never work are told so with the protocol's shutdown message.
@Suite struct WireRefusalTests {
    @Test func anInvalidNamespaceGetsTheShutdownMessageAndAClose() async throws {
        try await TestNode.with { node in
            try await onDedicatedThread {
                let socket = try WebSocketTestClient(port: node.port, target: "/.ws?v=5&ns=not%20valid")
                let message = try JSONReader.parseValue(try socket.readText())
                #expect(message["t"] == .string("c"))
                #expect(message["d"]?["t"] == .string("s"))
                #expect(message["d"]?["d"]?.stringValue?.contains("namespace") == true)
                #expect(try socket.readClose().code == 1008)
            }
        }
    }
}
