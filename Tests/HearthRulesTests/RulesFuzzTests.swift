import HearthCore
import HearthTestKit
import Testing

@testable import HearthRules

/// The rules parser and evaluator against random damage: every input is either read or refused with a position
/// inside the text, and every expression that parses evaluates to an answer, never a crash or a hang.
@Suite struct RulesFuzzTests {
    static let valid = #"""
        {
          // a comment with "quotes" and /* nested */ marks
          "rules": {
            ".read": "auth != null && root.child('admins/' + auth.uid).exists()",
            "posts": {
              ".indexOn": ["starCount", ".value"],
              "$post": {
                ".write": "!data.exists() || data.child('uid').val() === auth.uid",
                ".validate": "newData.hasChildren(['uid', 'title']) && newData.child('title').val().matches(/^[a-z]+$/i)",
                "starCount": { ".validate": "newData.isNumber() && newData.val() >= 0" }
              }
            }
          }
        }
        """#

    static let fragments = [
        "{", "}", "[", "]", "\"", ":", ",", "//", "/*", "*/", "\n", ".read", ".write", ".validate", ".indexOn", "$x",
        "true", "false", "null", "auth", "data", "newData", "root", "(", ")", "'", "&&", "||", "!", "===", "+", "?",
        "/a/", "\\", "é", "\u{0}", "1e999", "-",
    ]

    @Test(arguments: [1, 2, 3] as [UInt64])
    func damagedRulesFilesAreReadOrRefusedWithAPlaceInTheText(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let bytes = Array(Self.valid.utf8)
        for _ in 0..<600 {
            var damaged = bytes
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let position = Int.random(in: 0...damaged.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0 where position < damaged.count: damaged.remove(at: position)
                case 1:
                    let fragment = Self.fragments[Int.random(in: 0..<Self.fragments.count, using: &random)]
                    damaged.insert(contentsOf: Array(fragment.utf8), at: position)
                default: damaged = Array(damaged.prefix(position))
                }
            }
            let text = String(decoding: damaged, as: UTF8.self)
            do {
                _ = try RulesDocument.parse(text)
            } catch {
                let lines = text.utf8.filter { $0 == 10 }.count + 1
                #expect((1...lines).contains(error.line) && error.column >= 1, "\(error) for \(text)")
                #expect(error.description.hasPrefix("Error saving rules - Line "))
            }
        }
    }

    @Test(arguments: [4, 5] as [UInt64])
    func randomExpressionsParseOrAreRefusedAndEvaluateToAnAnswer(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let before = try WriteValue(
            json: try JSONReader.parseValue(#"{"a":{"b":1,"c":"x"},"admins":{"u1":true}}"#), depth: 0
        ).node
        let context = RuleContext(
            auth: .object(["uid": .string("u1"), "token": .object(["admin": .bool(true)])]), before: before,
            after: before.setting(Node(.int(2)), at: try Path(validating: "/a/b")), path: try Path(validating: "/a"),
            now: 1_700_000_000_000, wildcards: ["$x": "b"])
        let atoms = [
            "auth", "auth.uid", "auth.token.admin", "data", "newData", "root", "now", "$x", "query", "1", "'s'", "true",
            "null", "data.child('b')", "newData.val()", "data.exists()", "root.child('admins').child(auth.uid).val()",
            "'abc'.length", "'abc'.matches(/b/)", "data.parent()", "data.hasChildren(['b','c'])", "newData.child($x)",
        ]
        let operators = [
            "&&", "||", "==", "===", "!=", "<", ">=", "+", "-", "*", "/", "%", "?", ":", "!", "(", ")", ".",
        ]
        var parsed = 0
        for _ in 0..<3_000 {
            var text = ""
            for _ in 0..<Int.random(in: 1...7, using: &random) {
                if Bool.random(using: &random) {
                    text += atoms[Int.random(in: 0..<atoms.count, using: &random)]
                } else {
                    text += " " + operators[Int.random(in: 0..<operators.count, using: &random)] + " "
                }
            }
            guard let expression = try? RuleParser.parse(text) else { continue }
            parsed += 1
            _ = RuleEvaluator(context: context).grants(expression)
        }
        #expect(parsed > 300, "the generator makes enough valid expressions to be worth evaluating")
    }
}
