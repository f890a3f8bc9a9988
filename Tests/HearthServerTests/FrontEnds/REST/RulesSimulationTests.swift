import HearthNode
import HearthServer
import HearthTestKit
import Testing

/// `POST /.rules/simulate`, the console's playground: administrators only, decides against the current data and the
/// rules in force or a draft, names the deciding rule's line, and never writes.
@Suite struct RulesSimulationTests {
    static let secret = "simulate-secret"
    static let rules = """
        {
          "rules": {
            "users": {
              "$uid": {
                ".read": "$uid === auth.uid",
                ".write": "$uid === auth.uid && !data.exists()"
              }
            }
          }
        }
        """

    static func simulate(_ node: TestNode, _ body: String, auth: String? = secret) async throws
        -> HTTPTestClient.Response
    {
        try await node.request("POST", "/.rules/simulate" + (auth.map { "?auth=\($0)" } ?? ""), body: body)
    }

    /// Reads, sets and updates are decided against the current data, name the rule and line, and write nothing.
    @Test func decisionsNameTheRuleAndItsLineAndWriteNothing() async throws {
        try await TestNode.with(configure: { $0.databaseSecrets = [Self.secret] }) { node in
            _ = try await node.request("PUT", "/.settings/rules.json?auth=\(Self.secret)", body: Self.rules)
            _ = try await node.request("PUT", "/users/ada.json?auth=\(Self.secret)", body: #"{"name":"Ada"}"#)
            let read = try await Self.simulate(
                node, #"{"operation":"read","path":"/users/ada","auth":{"uid":"ada"}}"#)
            #expect(read.status == 200)
            #expect(read.text.contains(#""allowed":true"#))
            #expect(read.text.contains(#""rule":"/rules/users/$uid/.read""#))
            #expect(read.text.contains(#""line":5"#))
            let anonymous = try await Self.simulate(node, #"{"operation":"read","path":"/users/ada","auth":null}"#)
            #expect(anonymous.text.contains(#""allowed":false"#))
            #expect(anonymous.text.contains(#""rule":null"#))
            // The rule reads the current data: ada exists, so her set is refused; bob's is allowed.
            let existing = try await Self.simulate(
                node, #"{"operation":"set","path":"/users/ada","auth":{"uid":"ada"},"data":{"name":"x"}}"#)
            #expect(existing.text.contains(#""allowed":false"#))
            let fresh = try await Self.simulate(
                node, #"{"operation":"update","path":"/users/bob","auth":{"uid":"bob"},"data":{"name":"Bob"}}"#)
            #expect(fresh.text.contains(#""allowed":true"#))
            #expect(fresh.text.contains(#""line":6"#))
            let admin = try await Self.simulate(node, #"{"operation":"set","path":"/x","admin":true,"data":1}"#)
            #expect(admin.text.contains(#""allowed":true"#))
            #expect(try await node.request("GET", "/users/bob.json?auth=\(Self.secret)").text == "null")
            #expect(try await node.request("GET", "/x.json?auth=\(Self.secret)").text == "null")
        }
    }

    /// A draft sent along is checked instead of the rules in force; a draft with a mistake gets its line.
    @Test func aDraftIsCheckedInsteadOfTheRulesInForceAndItsMistakesNamed() async throws {
        try await TestNode.with(configure: { $0.databaseSecrets = [Self.secret] }) { node in
            let draft = #""{\"rules\": {\".read\": \"auth.uid === 'ada'\"}}""#
            let body = #"{"operation":"read","path":"/","auth":{"uid":"ada"},"rules":"# + draft + "}"
            let answer = try await Self.simulate(node, body)
            #expect(answer.text.contains(#""allowed":true"#))
            #expect(answer.text.contains(#""rule":"/rules/.read""#))
            let broken = #"{"operation":"read","path":"/","rules":"{\"rules\": {\".read\": \"auth &&\"}}"}"#
            let refused = try await Self.simulate(node, broken)
            #expect(refused.status == 400)
            #expect(refused.text.contains("Line 1"))
        }
    }

    /// Anyone but an administrator gets 401; a bad question a 400 naming what to fix; GET a 405.
    @Test func onlyAdministratorsMayAskAndBadQuestionsAreNamed() async throws {
        try await TestNode.with(configure: { $0.databaseSecrets = [Self.secret] }) { node in
            #expect(try await Self.simulate(node, #"{"operation":"read","path":"/"}"#, auth: nil).status == 401)
            let unknown = try await Self.simulate(node, #"{"operation":"delete","path":"/"}"#)
            #expect(unknown.status == 400)
            #expect(unknown.text.contains("operation must be"))
            #expect(try await Self.simulate(node, "not json").status == 400)
            #expect(try await node.request("GET", "/.rules/simulate?auth=\(Self.secret)").status == 405)
        }
    }
}
