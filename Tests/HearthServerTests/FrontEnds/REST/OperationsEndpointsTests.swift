import HearthTestKit
import Testing

@Suite struct OperationsEndpointsTests {
    @Test func healthAndReadyAnswerOkOnAServingNode() async throws {
        try await TestNode.with { node in
            let health = try await node.request("GET", "/.health")
            #expect(health.status == 200)
            #expect(health.text == #"{"status":"ok"}"#)
            let ready = try await node.request("GET", "/.ready")
            #expect(ready.status == 200)
            #expect(ready.text == #"{"ready":true}"#)
            #expect(try await node.request("HEAD", "/.ready").status == 200)
        }
    }

    @Test func operationsPathsRefuseWritesAndStoreNothing() async throws {
        try await TestNode.with { node in
            for path in ["/.health", "/.ready", "/.metrics"] {
                let refused = try await node.request("PUT", path, body: "1")
                #expect(refused.status == 405)
                #expect(refused.text.contains("GET and HEAD only"))
            }
            #expect(try await node.request("GET", "/.json").text == "null")
        }
    }
}
