import HearthNode
import HearthServer
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

/// The cluster's layout and its operations are for administrators: anyone else gets Firebase's 401 before the node
/// does or says anything, while health, readiness and metrics stay open for load balancers.
@Suite struct OperationsAuthorizationTests {
    static let secret = "operations-admin-secret"

    @Test func clusterEndpointsNeedAnAdministrator() async throws {
        try await TestNode.with(configure: { $0.databaseSecrets = [Self.secret] }) { node in
            let anonymous: [(String, String, String?)] = [
                ("GET", "/.cluster", nil), ("HEAD", "/.cluster", nil), ("POST", "/.cluster/remove", #"{"node":"n2"}"#),
                ("POST", "/.cluster/partition", #"{"peers":["n2"]}"#), ("POST", "/.cluster/heal", nil),
            ]
            for (method, path, body) in anonymous {
                let refused = try await node.request(method, path, body: body)
                #expect(refused.status == 401, "\(method) \(path)")
                if method != "HEAD" { #expect(refused.text == #"{"error":"Permission denied"}"#) }
                let wrong = try await node.request(
                    method, path, body: body, headers: [("Authorization", "Bearer not-the-secret")])
                #expect(wrong.status == 401, "\(method) \(path) with a wrong credential")
            }
            let admin = [("Authorization", "Bearer \(Self.secret)")]
            // A single node has no cluster to show, and this one takes no fault injection: said only to an admin.
            #expect(try await node.request("GET", "/.cluster", headers: admin).status == 404)
            #expect(try await node.request("GET", "/.cluster?auth=\(Self.secret)").status == 404)
            #expect(
                try await node.request("POST", "/.cluster/remove", body: #"{"node":"n2"}"#, headers: admin).status
                    == 404)
            #expect(try await node.request("POST", "/.cluster/heal", headers: admin).status == 403)
            for path in ["/.health", "/.ready", "/.metrics"] {
                #expect(try await node.request("GET", path).status == 200, "\(path)")
            }
        }
    }
}
