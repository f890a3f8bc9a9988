import HearthTestKit
import Testing

@testable import HearthNode
@testable import HearthServer

/// What a write's head decides before its body is read: only an administrator gets the import limit of
/// `writeSizeLimit=unlimited`, and a large write the rules refuse whatever it holds is answered 401 without its
/// body.
@Suite struct WriteAdmissionTests {
    static let owner = [("Authorization", "Bearer owner")]

    /// A node with small limits, so that the ordinary limit is easy to pass.
    static func withSmallLimits<T>(_ body: (TestNode) async throws -> T) async throws -> T {
        try await TestNode.with(configure: {
            $0.maximumWriteBytes = 1024
            $0.maximumImportBytes = 1 << 20
        }) { node in try await body(node) }
    }

    /// `writeSizeLimit=unlimited` lifts the body limit to the import limit for an administrator only; anyone else
    /// keeps the ordinary one.
    @Test func onlyAnAdministratorWritesPastTheOrdinaryLimit() async throws {
        try await Self.withSmallLimits { node in
            let big = "\"" + String(repeating: "a", count: 4096) + "\""
            let anonymous = try await node.request("PUT", "/big.json?writeSizeLimit=unlimited", body: big)
            #expect(anonymous.status == 400 && anonymous.text.contains("exceeds the maximum size"), "\(anonymous.text)")
            #expect(try await node.request("GET", "/big.json").text == "null")
            let admin = try await node.request(
                "PUT", "/big.json?writeSizeLimit=unlimited", body: big, headers: Self.owner)
            #expect(admin.status == 200, "\(admin.text)")
            let ordinary = try await node.request("PUT", "/big.json", body: big, headers: Self.owner)
            #expect(ordinary.status == 400, "an administrator without unlimited keeps the ordinary limit")
        }
    }

    /// A large or chunked write the rules refuse whatever it holds is answered 401 as soon as its head arrives, with
    /// the connection closed: a client announcing 200 MB gets its answer having sent only the head.
    @Test func aWriteTheRulesRefuseIsAnsweredBeforeItsBody() async throws {
        try await TestNode.with { node in
            let rules = #"{"rules": {".read": true, "open": {".write": true}, "x": {".write": "auth != null"}}}"#
            let put = try await node.request("PUT", "/.settings/rules.json", body: rules, headers: Self.owner)
            try #require(put.status == 200, "\(put.text)")
            let port = node.port
            let refused = try await onDedicatedThread {
                let client = try HTTPTestClient(port: port)
                try client.send(
                    "PUT /x.json?writeSizeLimit=unlimited HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        + "Content-Length: 209715200\r\n\r\n\"aaaa")
                return try client.readResponse(method: "PUT")
            }
            #expect(refused.status == 401 && refused.text == #"{"error":"Permission denied"}"#)
            #expect(refused.header("Connection")?.lowercased() == "close")
            #expect(try await node.request("PUT", "/open.json", body: "1").status == 200, "granted writes go on")
            let patch = try await onDedicatedThread {
                let client = try HTTPTestClient(port: port)
                try client.send(
                    "PATCH /x.json HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"a\":")
                return try client.readResponse(method: "PATCH")
            }
            #expect(patch.status == 401 && patch.header("Connection")?.lowercased() == "close")
            let small = try await onDedicatedThread {
                let client = try HTTPTestClient(port: port)
                let first = try client.request("PUT", "/x.json", body: "1")
                return (first.status, try client.request("GET", "/open.json").text)
            }
            #expect(small == (401, "1"), "a small refused write is read first and keeps the connection open")
            #expect(try await node.request("GET", "/x.json").text == "null")
        }
    }
}
