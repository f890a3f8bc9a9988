import HearthCore
import HearthNode
import HearthServer
import HearthTestKit
import Testing

/// What the console asks before it shows anything (`/.console/session`, answered to anyone) and the namespace list
/// of its picker (`/.namespaces`, administrators only).
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
            #expect(visitor.text.contains(#""healthProblem":null"#) && visitor.text.contains(#""notReadyReason":null"#))
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

    /// Only an administrator gets the namespace list; it names every namespace written to or given rules, the
    /// default one, and never the stored rules' `.settings`.
    @Test func administratorsListTheNamespacesTheNodeHolds() async throws {
        try await TestNode.with(configure: { $0.databaseSecrets = [Self.secret] }) { node in
            #expect(try await node.request("GET", "/.namespaces").status == 401)
            #expect(try await node.request("GET", "/.namespaces?auth=not-a-secret").status == 401)
            _ = try await node.request("PUT", "/a.json?ns=alpha&auth=\(Self.secret)", body: "1")
            _ = try await node.request("PUT", "/b/c.json?ns=beta&auth=\(Self.secret)", body: #""x""#)
            _ = try await node.request(
                "PUT", "/.settings/rules.json?ns=gamma&auth=\(Self.secret)", body: #"{"rules": {".read": true}}"#)
            let listed = try await node.request("GET", "/.namespaces?auth=\(Self.secret)")
            #expect(listed.status == 200)
            let names = Self.member("namespaces", of: listed.text)?.arrayOfStrings ?? []
            #expect(names == names.sorted())
            #expect(Set(names).isSuperset(of: ["alpha", "beta", "gamma"]))
            #expect(!names.contains(".settings"))
            let session = try await node.request("GET", "/.console/session").text
            let defaultNamespace = try #require(Self.member("namespace", of: session)?.stringValue)
            #expect(names.contains(defaultNamespace))
            #expect(try await node.request("POST", "/.namespaces?auth=\(Self.secret)", body: "{}").status == 405)
        }
    }
}

extension JSONValue {
    /// The strings of a JSON array of strings, or nil for anything else.
    fileprivate var arrayOfStrings: [String]? {
        guard case .array(let items) = self else { return nil }
        return items.compactMap(\.stringValue)
    }
}
