import Foundation
import HearthCore
import HearthTestKit
import Testing

@testable import HearthNode
@testable import HearthServer

/// Security rules and credentials over REST and SSE, against a node: the rules endpoint, Firebase's cascade on reads
/// and writes, tokens, multi-path updates that are all or nothing, and decisions that hold while the data they
/// read does.
@Suite struct SecurityRulesLoopbackTests {
    static let secret = "k7sJ2mQ9xw4Lr8Tz1vBn6Pc3Hd5Fg0Ye"
    static let owner = [("Authorization", "Bearer owner")]

    static let rules = #"""
        {
          "rules": {
            // Each user reads and writes their own profile; names are claimed once.
            "users": { "$uid": { ".read": "auth.uid === $uid", ".write": "auth.uid === $uid",
                                 "age": { ".validate": "newData.isNumber() && newData.val() >= 0" } } },
            "usernames": { "$name": { ".write": "auth != null && !data.exists()" } },
            "public": { ".read": true, ".write": "auth != null" },
            "notes": { ".read": "query.orderByChild === 'owner' && query.equalTo === auth.uid" }
          }
        }
        """#

    static func token(_ uid: String, expires: Int? = nil) -> String {
        let now = Int(Date().timeIntervalSince1970)
        let expiry = expires.map { ",\"exp\":\($0)" } ?? ""
        return TestTokens.hs256(#"{"v":0,"iat":\#(now - 10)\#(expiry),"d":{"uid":"\#(uid)"}}"#, secret: Self.secret)
    }

    /// A node with the database secret and `rules` installed for the default namespace.
    static func withRules<T>(_ rules: String = Self.rules, _ body: (TestNode) async throws -> T) async throws -> T {
        try await TestNode.with(configure: { $0.databaseSecrets = [Self.secret] }) { node in
            let put = try await node.request(
                "PUT", "/.settings/rules.json", body: rules, headers: [("Authorization", "Bearer \(Self.secret)")])
            #expect(put.status == 200, "\(put.text)")
            return try await body(node)
        }
    }

    @Test func onlyAnAdministratorReadsOrReplacesTheRulesAndAMistakeChangesNothing() async throws {
        try await TestNode.with { node in
            let open = try await node.request("GET", "/.settings/rules.json", headers: Self.owner)
            #expect(open.status == 200 && open.text.contains(#"".write": true"#))
            #expect(try await node.request("GET", "/.settings/rules.json").status == 401)
            #expect(try await node.request("PUT", "/.settings/rules.json", body: Self.rules).status == 401)
            let broken = try await node.request(
                "PUT", "/.settings/rules.json", body: "{\"rules\": {\n\".read\": tru }}", headers: Self.owner)
            #expect(broken.status == 400 && broken.text.contains("Line 2"), "\(broken.text)")
            #expect(try await node.request("PUT", "/anything.json", body: "1").status == 200, "the open rules stay")
            #expect(
                try await node.request("PUT", "/.settings/rules.json", body: Self.rules, headers: Self.owner).status
                    == 200)
            #expect(try await node.request("GET", "/.settings/rules.json", headers: Self.owner).text == Self.rules)
            let denied = try await node.request("PUT", "/anything.json", body: "2")
            #expect(denied.status == 401 && denied.text == #"{"error":"Permission denied"}"#)
            #expect(try await node.request("GET", "/anything.json", headers: Self.owner).text == "1")
        }
    }

    @Test func readsAndWritesFollowTheCascadeAndTheToken() async throws {
        try await Self.withRules { node in
            let ada = "?auth=" + Self.token("ada")
            #expect(try await node.request("PUT", "/users/ada.json\(ada)", body: #"{"age":36}"#).status == 200)
            #expect(try await node.request("GET", "/users/ada.json\(ada)").text == #"{"age":36}"#)
            #expect(try await node.request("GET", "/users/ada.json").status == 401)
            #expect(try await node.request("GET", "/users/bob.json\(ada)").status == 401)
            #expect(try await node.request("PUT", "/users/bob.json\(ada)", body: "1").status == 401)
            #expect(try await node.request("PUT", "/users/ada/age.json\(ada)", body: "-1").status == 401)
            let bearer = [("Authorization", "Bearer " + Self.token("ada"))]
            #expect(try await node.request("GET", "/users/ada/age.json", headers: bearer).text == "36")
            let forged = try await node.request(
                "GET", "/users/ada.json?auth=" + TestTokens.hs256(#"{"d":{"uid":"ada"}}"#, secret: "guess"))
            #expect(forged.status == 401 && forged.text.contains("auth token"))
            let expired = try await node.request("GET", "/users/ada.json?auth=" + Self.token("ada", expires: 1000))
            #expect(expired.status == 401 && expired.text.contains("expired"))
            let admin = try await node.request("GET", "/users.json?auth=\(Self.secret)")
            #expect(admin.text == #"{"ada":{"age":36}}"#)
            let asBob = try await node.request(
                "GET", "/users/ada.json?auth=\(Self.secret)&auth_variable_override=%7B%22uid%22%3A%22bob%22%7D")
            #expect(asBob.status == 401, "an administrator acting as bob gets bob's rights")
        }
    }

    @Test func aMultiPathUpdateWithOneRefusedPathWritesNothing() async throws {
        try await Self.withRules { node in
            let ada = "?auth=" + Self.token("ada")
            let patch = try await node.request(
                "PATCH", "/.json\(ada)", body: #"{"users/ada/age":40,"users/bob/age":1,"public/last":"ada"}"#)
            #expect(patch.status == 401)
            #expect(try await node.request("GET", "/.json?auth=\(Self.secret)").text == "null")
            let allowed = try await node.request(
                "PATCH", "/.json\(ada)", body: #"{"users/ada/age":40,"public/last":"ada"}"#)
            #expect(allowed.status == 200)
            #expect(try await node.request("GET", "/public/last.json").text == #""ada""#)
        }
    }

    @Test func queryBasedRulesAllowOnlyTheQueryTheyName() async throws {
        try await Self.withRules { node in
            _ = try await node.request(
                "PUT", "/notes.json?auth=\(Self.secret)", body: #"{"n1":{"owner":"ada"},"n2":{"owner":"bob"}}"#)
            let ada = "auth=" + Self.token("ada")
            #expect(try await node.request("GET", "/notes.json?\(ada)").status == 401)
            let mine = try await node.request("GET", "/notes.json?\(ada)&orderBy=%22owner%22&equalTo=%22ada%22")
            #expect(mine.text == #"{"n1":{"owner":"ada"}}"#)
            #expect(
                try await node.request("GET", "/notes.json?\(ada)&orderBy=%22owner%22&equalTo=%22bob%22").status == 401)
        }
    }

    /// `!data.exists()` read an empty location for every claimant at once; the write is made only while it still is,
    /// so exactly one claim wins (checked and written in one step, as Firebase's server does).
    @Test func aNameClaimedByManyAtOnceGoesToExactlyOne() async throws {
        try await Self.withRules { node in
            let port = node.port
            let statuses = try await withThrowingTaskGroup(of: (String, Int).self) { group in
                for index in 0..<16 {
                    group.addTask {
                        let status = try await onDedicatedThread {
                            try HTTPTestClient(port: port).request(
                                "PUT", "/usernames/star.json?auth=" + Self.token("u\(index)"), body: #""u\#(index)""#
                            ).status
                        }
                        return ("u\(index)", status)
                    }
                }
                var statuses: [String: Int] = [:]
                for try await (user, status) in group { statuses[user] = status }
                return statuses
            }
            let winners = statuses.filter { $0.value == 200 }.map(\.key)
            #expect(winners.count == 1, "\(statuses)")
            #expect(statuses.values.allSatisfy { $0 == 200 || $0 == 401 })
            #expect(
                try await node.request("GET", "/usernames/star.json?auth=\(Self.secret)").text
                    == "\"\(winners.first ?? "")\"")
        }
    }

    @Test func anSSEStreamIsCancelledWhenTheRulesStopAllowingIt() async throws {
        try await Self.withRules { node in
            let port = node.port
            let events = try await onDedicatedThread { () -> [String] in
                let stream = try HTTPTestClient(port: port)
                _ = try stream.request("GET", "/public.json", headers: [("Accept", "text/event-stream")])
                let first = try stream.readEvent().event
                let admin = try HTTPTestClient(port: port)
                _ = try admin.request(
                    "PUT", "/.settings/rules.json?auth=\(Self.secret)", body: #"{"rules": {".read": false}}"#)
                return [first, try stream.readEvent().event]
            }
            #expect(events == ["put", "cancel"])
        }
    }
}
