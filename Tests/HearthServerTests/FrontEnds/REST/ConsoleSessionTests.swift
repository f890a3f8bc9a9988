import HearthCore
import HearthServer
import HearthTestKit
import Testing

/// What the console asks before it shows anything (`/.console/session`, answered to anyone).
@Suite struct ConsoleSessionTests {
    static let secret = "session-secret"

    /// A member of the JSON object `text`, or nil.
    static func member(_ name: String, of text: String) -> JSONValue? {
        (try? JSONReader.parseValue(Array(text.utf8)))?[name]
    }

    /// On a closed node the session answer is a 200 for anyone, says who the credential makes, and holds no data.
    @Test func theSessionAnswersAnyoneAndHoldsNoData() async throws {
        try await TestNode.with(configure: { $0.databaseSecrets = [Self.secret] }) { node in
            let closed = #"{"rules": {".read": false, ".write": false}}"#
            _ = try await node.request("PUT", "/.settings/rules.json?auth=\(Self.secret)", body: closed)
            _ = try await node.request("PUT", "/vault.json?auth=\(Self.secret)", body: #"{"pin":8231}"#)
            let visitor = try await node.request("GET", "/.console/session")
            #expect(visitor.status == 200)
            #expect(visitor.header("Content-Type") == "application/json; charset=utf-8")
            #expect(visitor.text.contains(#""administrator":false"#))
            #expect(visitor.text.contains(#""ownerAccepted":false"#))
            #expect(visitor.text.contains(#""publicRead":false"#))
            #expect(!visitor.text.contains("vault") && !visitor.text.contains("8231"))
            let wrong = try await node.request("GET", "/.console/session?auth=not-a-secret")
            #expect(wrong.status == 200)
            #expect(wrong.text.contains(#""administrator":false"#))
            let admin = try await node.request("GET", "/.console/session?auth=\(Self.secret)")
            #expect(admin.text.contains(#""administrator":true"#))
            _ = try await node.request(
                "PUT", "/.settings/rules.json?auth=\(Self.secret)", body: #"{"rules": {".read": true}}"#)
            #expect(try await node.request("GET", "/.console/session").text.contains(#""publicRead":true"#))
            #expect(try await node.request("POST", "/.console/session", body: "{}").status == 405)
            #expect(try await node.request("GET", "/.console/session?ns=Not%20A%20Name").status == 400)
        }
    }

    /// A loopback node without secrets accepts `owner`, so the console may open there as the emulator's UI does.
    @Test func anOpenNodeSaysItAcceptsTheOwnerCredential() async throws {
        try await TestNode.with { node in
            let answer = try await node.request("GET", "/.console/session")
            #expect(answer.text.contains(#""ownerAccepted":true"#))
            #expect(answer.text.contains(#""administrator":false"#))
            #expect(
                try await node.request("GET", "/.console/session?auth=owner").text.contains(#""administrator":true"#))
        }
    }
}
