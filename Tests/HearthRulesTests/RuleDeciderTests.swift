import HearthCore
import Testing

@testable import HearthRules

/// A check names the rule that decided it (for the console's playground), and that rule's line in the file.
@Suite struct RuleDeciderTests {
    private static let text = """
        {
          // comments keep their lines
          "rules": {
            "posts": {
              ".read": true,
              "$postId": {
                ".write": "auth != null",
                "title": { ".validate": "newData.isString()" }
              }
            }
          }
        }
        """

    private static func node(_ json: String) throws -> Node {
        try WriteValue(json: try JSONReader.parseValue(json), depth: 0).node
    }

    private static let user = RuleValue.object(["uid": .string("ada")])

    /// A read granted higher up names that `.read` and the line it is on (comments counted).
    @Test func aGrantingReadNamesItsRuleAndLine() throws {
        let document = try RulesDocument.parse(Self.text)
        let verdict = document.checkRead(at: try Path(validating: "/posts/p1"), auth: .null, data: .empty, now: 0)
        let decider = try #require(verdict.decider)
        #expect(verdict.isAllowed)
        #expect(document.ruleKeys(of: decider) == ["rules", "posts", ".read"])
        #expect(RulesDocument.position(of: document.ruleKeys(of: decider), in: Self.text).line == 5)
    }

    /// A write granted by a wildcard's `.write` names the rule as written (`$postId`).
    @Test func aWriteNamesTheWildcardRuleThatGrantedIt() throws {
        let document = try RulesDocument.parse(Self.text)
        let path = try Path(validating: "/posts/p1")
        let after = try Self.node(#"{"posts": {"p1": {"title": "hi"}}}"#)
        let verdict = document.checkWrite(at: [path], auth: Self.user, before: .empty, after: after, now: 0)
        let decider = try #require(verdict.decider)
        #expect(verdict.isAllowed)
        #expect(document.ruleKeys(of: decider) == ["rules", "posts", "$postId", ".write"])
        #expect(RulesDocument.position(of: document.ruleKeys(of: decider), in: Self.text).line == 7)
    }

    /// A write refused by a `.validate` in the new data names that `.validate`.
    @Test func aFailingValidateIsTheDecider() throws {
        let document = try RulesDocument.parse(Self.text)
        let path = try Path(validating: "/posts/p1")
        let after = try Self.node(#"{"posts": {"p1": {"title": 5}}}"#)
        let verdict = document.checkWrite(at: [path], auth: Self.user, before: .empty, after: after, now: 0)
        let decider = try #require(verdict.decider)
        #expect(!verdict.isAllowed)
        #expect(document.ruleKeys(of: decider) == ["rules", "posts", "$postId", "title", ".validate"])
        #expect(RulesDocument.position(of: document.ruleKeys(of: decider), in: Self.text).line == 8)
    }

    /// A refusal because no rule granted names no rule.
    @Test func aRefusalNoRuleGrantedHasNoDecider() throws {
        let document = try RulesDocument.parse(Self.text)
        let path = try Path(validating: "/posts/p1")
        let after = try Self.node(#"{"posts": {"p1": {"title": "hi"}}}"#)
        let verdict = document.checkWrite(at: [path], auth: .null, before: .empty, after: after, now: 0)
        #expect(!verdict.isAllowed)
        #expect(verdict.decider == nil)
    }
}
