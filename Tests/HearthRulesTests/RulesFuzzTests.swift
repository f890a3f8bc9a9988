import HearthCore
import HearthTestKit
import Testing

@testable import HearthRules

/// Random rule expressions built from the language's atoms and operators: every one that parses evaluates to an
/// answer, never a crash or a hang. (Damaged rules files and mutated expressions are the `rules` and
/// `rule-expression` fuzz targets, `FuzzTargetTests`.)
@Suite struct RulesFuzzTests {
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
