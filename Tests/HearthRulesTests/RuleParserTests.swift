import Testing

@testable import HearthRules

/// Reading rule expressions: precedence, the forms rules use, and errors that say where.
@Suite struct RuleParserTests {
    @Test func precedenceAndAssociativity() throws {
        #expect(
            try RuleParser.parse("a || b && c")
                == .binary("||", .variable("a"), .binary("&&", .variable("b"), .variable("c"))))
        #expect(
            try RuleParser.parse("1 + 2 * 3 == 7")
                == .binary("==", .binary("+", .number(1), .binary("*", .number(2), .number(3))), .number(7)))
        #expect(
            try RuleParser.parse("a - b - c")
                == .binary("-", .binary("-", .variable("a"), .variable("b")), .variable("c")))
        #expect(try RuleParser.parse("!a == b") == .binary("==", .unary("!", .variable("a")), .variable("b")))
        #expect(
            try RuleParser.parse("a ? b : c ? d : e")
                == .conditional(
                    .variable("a"), .variable("b"), .conditional(.variable("c"), .variable("d"), .variable("e"))))
    }

    @Test func theFormsRulesUse() throws {
        #expect(
            try RuleParser.parse("newData.child('uid').val() === auth.uid")
                == .binary(
                    "===", .call(.call(.variable("newData"), "child", [.string("uid")]), "val", []),
                    .member(.variable("auth"), "uid")))
        #expect(
            try RuleParser.parse("auth.token['email']") == .index(.member(.variable("auth"), "token"), .string("email"))
        )
        #expect(
            try RuleParser.parse("newData.hasChildren(['name', \"age\"])")
                == .call(.variable("newData"), "hasChildren", [.array([.string("name"), .string("age")])]))
        #expect(
            try RuleParser.parse("newData.val().matches(/^[a-z]+@x\\/y$/i)")
                == .call(
                    .call(.variable("newData"), "val", []), "matches",
                    [.regex(try RuleRegex(pattern: "^[a-z]+@x\\/y$", flags: "i"))]))
        #expect(
            try RuleParser.parse("$uid === auth.uid")
                == .binary("===", .variable("$uid"), .member(.variable("auth"), "uid")))
        #expect(
            try RuleParser.parse("now - 60000 < 1.5")
                == .binary("<", .binary("-", .variable("now"), .number(60000)), .number(1.5)))
        #expect(try RuleParser.parse("a / 2") == .binary("/", .variable("a"), .number(2)))
        #expect(try RuleParser.parse("(true)") == .bool(true))
    }

    @Test func errorsSayWhatAndWhere() {
        let cases: [(String, String, Int)] = [
            ("auth.uid ==", "Unexpected end of expression.", 11),
            ("data.val() )", "Unexpected ')'.", 11),
            ("a ? b", "Unexpected end of expression; expected ':'.", 5),
            ("'open", "Unterminated string.", 0),
            ("a # b", "Unexpected character '#'.", 2),
            ("data.child('a'", "Unexpected end of expression; expected ')'.", 14),
            ("f(a)", "Unexpected '('.", 1),
        ]
        for (text, message, offset) in cases {
            do {
                _ = try RuleParser.parse(text)
                Issue.record("\(text) parsed")
            } catch {
                #expect(error.message == message, "\(text)")
                #expect(error.offset == offset, "\(text)")
            }
        }
    }

    /// Trees deeper than `maximumDepth` (brackets, unary operators, chains of binary operators or of members) are
    /// refused with a message, so no rules file can exhaust the stack; trees within it parse.
    @Test func expressionsDeeperThanTheLimitAreRefused() throws {
        let limit = RuleParser.maximumDepth
        let deep = [
            String(repeating: "(", count: 100_000) + "a" + String(repeating: ")", count: 100_000),
            String(repeating: "!", count: 100_000) + "a",
            Array(repeating: "a", count: 100_000).joined(separator: " + "),
            "root" + String(repeating: ".child('a')", count: 100_000) + ".exists()",
            String(repeating: "a[", count: 100_000) + "0" + String(repeating: "]", count: 100_000),
        ]
        for text in deep {
            #expect(throws: RuleSyntaxError.self, "\(text.prefix(20))") { try RuleParser.parse(text) }
            do {
                _ = try RuleParser.parse(text)
            } catch {
                #expect(error.message.hasPrefix("Expression nests too deeply"), "\(error)")
            }
        }
        let fine = [
            String(repeating: "(", count: limit / 4) + "a" + String(repeating: ")", count: limit / 4),
            Array(repeating: "a", count: limit / 4).joined(separator: " || "),
            "root" + String(repeating: ".child('a')", count: limit / 4) + ".exists()",
        ]
        for text in fine { _ = try RuleParser.parse(text) }
    }
}
