import Foundation
import HearthCore
import HearthTestKit
import Testing

@testable import HearthNode
@testable import HearthServer

/// Security rules and credentials over the realtime protocol: `auth` with tokens, refused listens, writes and
/// onDisconnects, and listens revoked (`c`) when the rules or the credential change.
@Suite struct WireSecurityRulesTests {
    typealias Rules = SecurityRulesLoopbackTests

    /// A node with the test rules installed for the wire client's namespace.
    private static func withRules(_ body: @escaping @Sendable (Int) throws -> Void) async throws {
        try await TestNode.with(configure: { $0.databaseSecrets = [Rules.secret] }) { node in
            let put = try await node.request(
                "PUT", "/.settings/rules.json?ns=wiretest&auth=\(Rules.secret)", body: Rules.rules)
            #expect(put.status == 200, "\(put.text)")
            let port = node.port
            try await onDedicatedThread { try body(port) }
        }
    }

    private static func status(_ response: JSONValue) -> String? { response["s"]?.stringValue }

    @Test func authNamesTheUserAndTheRulesDecideEveryRequest() async throws {
        try await Self.withRules { port in
            let client = try WireTestClient(port: port)
            #expect(Self.status(try client.call("q", #"{"p":"/users/ada","h":""}"#)) == "permission_denied")
            #expect(Self.status(try client.call("p", #"{"p":"/users/ada/age","d":3}"#)) == "permission_denied")
            let forged = try client.call(
                "auth", #"{"cred":"\#(TestTokens.hs256(#"{"d":{"uid":"ada"}}"#, secret: "x"))"}"#)
            #expect(Self.status(forged) == "invalid_token")
            let auth = try client.call("auth", #"{"cred":"\#(Rules.token("ada"))"}"#)
            #expect(Self.status(auth) == "ok" && auth["d"]?["auth"]?["uid"] == .string("ada"))
            #expect(Self.status(try client.call("p", #"{"p":"/users/ada/age","d":36}"#)) == "ok")
            #expect(Self.status(try client.call("p", #"{"p":"/users/ada/age","d":-1}"#)) == "permission_denied")
            #expect(
                Self.status(try client.call("m", #"{"p":"/users","d":{"ada/age":1,"bob/age":1}}"#))
                    == "permission_denied")
            #expect(Self.status(try client.call("q", #"{"p":"/users/ada","h":""}"#)) == "ok")
            #expect(Self.status(try client.call("g", #"{"p":"/users/bob","q":{}}"#)) == "permission_denied")
            #expect(Self.status(try client.call("o", #"{"p":"/users/bob/online","d":false}"#)) == "permission_denied")
            #expect(Self.status(try client.call("o", #"{"p":"/users/ada/online","d":false}"#)) == "ok")
            let stale = try client.call("p", #"{"p":"/users/ada/age","d":37,"h":"wrong"}"#)
            #expect(Self.status(stale) == "datastale", "a transaction's own hash still decides")
        }
    }

    @Test func anAdministratorActsAsTheUserItNames() async throws {
        try await Self.withRules { port in
            let client = try WireTestClient(port: port)
            let asAda = try client.call("gauth", #"{"cred":"\#(Rules.secret)","authvar":{"uid":"ada"}}"#)
            #expect(Self.status(asAda) == "ok" && asAda["d"]?["auth"]?["uid"] == .string("ada"))
            #expect(Self.status(try client.call("g", #"{"p":"/users/ada","q":{}}"#)) == "ok")
            #expect(Self.status(try client.call("g", #"{"p":"/users/bob","q":{}}"#)) == "permission_denied")
            #expect(Self.status(try client.call("gauth", #"{"cred":"\#(Rules.secret)","noauth":true}"#)) == "ok")
            #expect(Self.status(try client.call("g", #"{"p":"/users/ada","q":{}}"#)) == "permission_denied")
            let impersonation = try client.call("auth", #"{"cred":"\#(Rules.token("eve"))","authvar":{"uid":"ada"}}"#)
            #expect(Self.status(impersonation) == "permission_denied")
        }
    }

    @Test func listensAreRevokedWhenTheCredentialOrTheRulesChange() async throws {
        try await Self.withRules { port in
            let client = try WireTestClient(port: port)
            #expect(Self.status(try client.call("auth", #"{"cred":"\#(Rules.token("ada"))"}"#)) == "ok")
            #expect(Self.status(try client.call("q", #"{"p":"/users/ada","h":""}"#)) == "ok")
            #expect(Self.status(try client.call("q", #"{"p":"/public","h":""}"#)) == "ok")
            #expect(Self.status(try client.call("unauth", "{}")) == "ok")
            var revoked = try client.nextPush()
            while revoked["a"] != .string("c") { revoked = try client.nextPush() }
            #expect(revoked["b"]?["p"] == .string("users/ada"))
            let admin = try HTTPTestClient(port: port)
            let put = try admin.request(
                "PUT", "/.settings/rules.json?ns=wiretest&auth=\(Rules.secret)", body: #"{"rules": {".read": false}}"#)
            #expect(put.status == 200)
            revoked = try client.nextPush()
            while revoked["a"] != .string("c") { revoked = try client.nextPush() }
            #expect(revoked["b"]?["p"] == .string("public"))
        }
    }

    /// A session checks its writes under the rules as they stand when each arrives: rules changed between two of its
    /// writes decide the second (the reactor keeps the session's rules and reads them again once any changed).
    @Test func aRulesChangeDecidesTheSessionsNextWrite() async throws {
        try await Self.withRules { port in
            let client = try WireTestClient(port: port)
            let admin = try HTTPTestClient(port: port)
            #expect(Self.status(try client.call("auth", #"{"cred":"\#(Rules.token("ada"))"}"#)) == "ok")
            #expect(Self.status(try client.call("p", #"{"p":"/public/a","d":1}"#)) == "ok")
            #expect(Self.status(try client.call("m", #"{"p":"/public","d":{"b":2,"c":3}}"#)) == "ok")
            let closed = try admin.request(
                "PUT", "/.settings/rules.json?ns=wiretest&auth=\(Rules.secret)", body: #"{"rules": {".write": false}}"#)
            #expect(closed.status == 200)
            #expect(Self.status(try client.call("p", #"{"p":"/public/a","d":4}"#)) == "permission_denied")
            #expect(Self.status(try client.call("m", #"{"p":"/public","d":{"b":5}}"#)) == "permission_denied")
            // Another namespace's rules changing leaves this one's in force.
            let other = try admin.request(
                "PUT", "/.settings/rules.json?ns=elsewhere&auth=\(Rules.secret)", body: #"{"rules": {".write": true}}"#)
            #expect(other.status == 200)
            #expect(Self.status(try client.call("p", #"{"p":"/public/a","d":6}"#)) == "permission_denied")
            let open = try admin.request(
                "PUT", "/.settings/rules.json?ns=wiretest&auth=\(Rules.secret)", body: #"{"rules": {".write": true}}"#)
            #expect(open.status == 200)
            #expect(Self.status(try client.call("p", #"{"p":"/public/a","d":7}"#)) == "ok")
            let read = try admin.request("GET", "/public.json?ns=wiretest&auth=\(Rules.secret)")
            #expect(read.text == #"{"a":7,"b":2,"c":3}"#)
        }
    }

    @Test func anExpiredTokenIsRevokedAndItsListensWithIt() async throws {
        try await Self.withRules { port in
            let client = try WireTestClient(port: port)
            // Whole seconds: between one and two seconds from now, so the listen is in place before it expires
            // however slow the machine (with one second, a token that had 50 ms left refused the listen, and the
            // loop below waited for pushes that never came).
            let expires = Int(Date().timeIntervalSince1970) + 2
            #expect(
                Self.status(try client.call("auth", #"{"cred":"\#(Rules.token("ada", expires: expires))"}"#)) == "ok")
            try #require(Self.status(try client.call("q", #"{"p":"/users/ada","h":""}"#)) == "ok")
            var pushes: [String] = []
            let deadline = ContinuousClock.now + .seconds(20)
            while pushes.count < 2, ContinuousClock.now < deadline {
                let push = try client.nextPush()
                if let action = push["a"]?.stringValue, action == "ac" || action == "c" {
                    pushes.append(action)
                    if action == "ac" { #expect(push["b"]?["s"] == .string("expired_token")) }
                }
            }
            #expect(Set(pushes) == ["ac", "c"])
        }
    }
}
