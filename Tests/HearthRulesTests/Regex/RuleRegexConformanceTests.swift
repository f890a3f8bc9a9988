import HearthCore
import Testing

@testable import HearthRules

/// The rules' regular expressions follow RE2: each construct Firebase documents (and the rest of RE2's syntax we
/// accept), anchors, classes, case-insensitive matching and Unicode scalars, and a match anywhere in the string
/// unless anchored.
@Suite struct RuleRegexConformanceTests {
    /// (pattern, flags, text, whether it matches)
    static let table: [(String, String, String, Bool)] = [
        // A match anywhere unless anchored (Firebase: /a/ matches "ba", /^a/ does not; /a$/ does not match "ab").
        ("a", "", "ba", true), ("^a", "", "ba", false), ("a$", "", "ab", false), ("", "", "anything", true),
        // Firebase's documented examples.
        ("^a*$", "", "", true), ("^a*$", "", "aaa", true), ("^a*$", "", "b", false),
        ("^a+$", "", "a", true), ("^a+$", "", "aaa", true), ("^a+$", "", "", false),
        ("^a?$", "", "", true), ("^a?$", "", "a", true), ("^a?$", "", "aa", false),
        ("........", "", "Firebase", true), ("(ab)*", "", "abab", true), ("^(ab)*$", "", "aba", false),
        ("a|bc", "", "ac", true), ("a|bc", "", "bc", true), ("^(a|bc)$", "", "c", false),
        ("^[ABCDEF]+$", "", "FACE", true), ("[ABCDEF]", "", "xyz", false),
        ("^[0-9A-F]+$", "", "DEADBEEF", true), ("^[0-9A-F]+$", "", "DEADBEEG", false),
        ("^[^0-9]+$", "", "abc", true), ("^[^0-9]+$", "", "a1c", false),
        ("^foo", "", "foobar", true), ("yes", "i", "YES!", true),
        (#"^(19|20)[0-9][0-9][-\/. ](0[1-9]|1[012])[-\/. ](0[1-9]|[12][0-9]|3[01])$"#, "", "2024-02-29", true),
        (#"^(19|20)[0-9][0-9][-\/. ](0[1-9]|1[012])[-\/. ](0[1-9]|[12][0-9]|3[01])$"#, "", "2024-13-01", false),
        (#"^[A-Z0-9._%+-]+@[A-Z0-9.-]+\.[A-Z]{2,4}$"#, "i", "ada@example.org", true),
        (#"^[A-Z0-9._%+-]+@[A-Z0-9.-]+\.[A-Z]{2,4}$"#, "i", "ada@example", false),
        // Counted repetitions, greedy or lazy (the same for a yes-or-no match).
        (#"^\d{3}$"#, "", "123", true), (#"^\d{3}$"#, "", "1234", false), (#"^\d{2,}$"#, "", "1", false),
        (#"^\d{2,}$"#, "", "12345", true), (#"^\d{2,3}$"#, "", "1234", false), (#"^\d{2,3}$"#, "", "123", true),
        ("^a+?$", "", "aaa", true), ("^a*?b$", "", "aab", true), ("^a{2,3}?$", "", "aaa", true),
        ("^a??b$", "", "b", true), ("^a{0}$", "", "", true),
        // A `{` that does not start a count is a literal, as in RE2.
        ("^a{,2}$", "", "a{,2}", true), ("^{$", "", "{", true), ("^a{x}$", "", "a{x}", true),
        // Classes and their shorthands (ASCII, as in RE2).
        (#"^\w+$"#, "", "a_Z9", true), (#"^\w+$"#, "", "a-1", false), (#"^\W$"#, "", "-", true),
        (#"^\d$"#, "", "٣", false), (#"^\D$"#, "", "x", true), (#"^\D$"#, "", "5", false),
        (#"^\s+$"#, "", " \t\n\r\u{0C}", true), (#"^\S+$"#, "", "a b", false),
        (#"^[\d\s]+$"#, "", "1 2", true), (#"^[^\d]+$"#, "", "ab", true), (#"^[\D]$"#, "", "7", false),
        ("^[]a]+$", "", "]a", true), ("^[a-]+$", "", "-a", true), ("^[^]a]$", "", "b", true),
        ("^[[:alpha:]]+$", "", "abcXYZ", true), ("^[[:digit:]]+$", "", "a", false),
        ("^[[:^space:]]+$", "", "ab", true), ("^[a-c[:digit:]]+$", "", "a1c", true),
        // `.` is any scalar but a newline; `(?s)` lets it match a newline.
        ("^.$", "", "\n", false), ("(?s)^.$", "", "\n", true), ("^a.c$", "", "a\u{0}c", true),
        // `$` is the end of the text only (not before a final newline), as in RE2.
        ("^a$", "", "a\n", false), (#"\Aab\z"#, "", "ab", true), (#"\Ab"#, "", "ab", false),
        // Word boundaries.
        (#"\bcat\b"#, "", "a cat sat", true), (#"\bcat\b"#, "", "concat", false), (#"\Bcat"#, "", "concat", true),
        (#"^\b$"#, "", "", false), (#"^\B$"#, "", "", true),
        // Escapes.
        (#"^a\.b$"#, "", "a.b", true), (#"^a\.b$"#, "", "axb", false), (#"^\/$"#, "", "/", true),
        (#"^\\$"#, "", "\\", true), (#"a\nb"#, "", "a\nb", true), (#"^\t$"#, "", "\t", true),
        (#"^\x41$"#, "", "A", true), (#"^\x{1F600}$"#, "", "😀", true), (#"^\0$"#, "", "\u{0}", true),
        (#"^\*\+\?\(\)\[\]\{\}\|\^\$$"#, "", "*+?()[]{}|^$", true),
        // Groups: capturing, non-capturing, named; empty alternatives.
        ("^(?:ab)+$", "", "abab", true), ("^(?P<x>a)b$", "", "ab", true), ("^(?<x>a)b$", "", "ab", true),
        ("^(a|)$", "", "", true), ("^(|a)b$", "", "ab", true), ("^()*$", "", "", true), ("^(a*)*$", "", "aa", true),
        // Ignoring case: literals, ranges, negated classes (folded before negating), flag groups.
        ("^abc$", "i", "AbC", true), ("^abc$", "", "ABC", false), ("^[a-z]+$", "i", "HeLLo", true),
        ("^[^a]$", "i", "A", false), ("^[^a]$", "i", "b", true), ("(?i)^abc$", "", "ABC", true),
        ("^(?i:a)b$", "", "Ab", true), ("^(?i:a)b$", "", "AB", false), ("^(?i)a(?-i)b$", "", "Ab", true),
        ("^(?i)a(?-i)b$", "", "AB", false), ("^é$", "i", "É", true), ("^σ$", "i", "Σ", true),
        ("^[α-ω]+$", "i", "ΑΒΓ", true),
        // Unicode: matching runs over scalars, not bytes or graphemes.
        ("^.$", "", "é", true), ("^.$", "", "😀", true), ("^..$", "", "e\u{301}", true), ("^.$", "", "e\u{301}", false),
        ("^[😀-😂]$", "", "😁", true), ("^日本$", "", "日本", true),
    ]

    /// Every row of the table answers as RE2 does.
    @Test func theTableMatchesAsRE2Does() throws {
        for (pattern, flags, text, expected) in Self.table {
            let regex = try RuleRegex(pattern: pattern, flags: flags)
            var budget = RuleBudget()
            #expect(
                try regex.matches(text, budget: &budget) == expected, "/\(pattern)/\(flags) on \(text.debugDescription)"
            )
        }
    }

    /// (pattern, flags, what the message says, offset from the opening `/`)
    static let refused: [(String, String, String, Int)] = [
        (#"(a)\1"#, "", "backreferences", 4), ("(?=a)", "", "lookahead", 1), ("(?!a)", "", "lookahead", 1),
        ("(?<=a)b", "", "lookbehind", 1), ("(?<!a)b", "", "lookbehind", 1), ("a**", "", "cannot be repeated", 3),
        ("a+*", "", "cannot be repeated", 3), ("*a", "", "nothing to repeat", 1), ("a|+", "", "nothing to repeat", 3),
        ("a{1001}", "", "at most 1000", 2), ("a{2,1001}", "", "at most 1000", 2), ("a{3,2}", "", "max below min", 2),
        ("(ab", "", "missing ')'", 1), ("ab)", "", "unmatched ')'", 3), ("[ab", "", "missing ']'", 1),
        ("[z-a]", "", "bad range", 2), (#"\q"#, "", "invalid escape", 1), (#"\_"#, "", "invalid escape", 1),
        (#"\pL"#, "", "Unicode classes", 1), (#"a\"#, "", "ends with", 2), ("(?x)", "", "unsupported group", 1),
        ("[[:nope:]]", "", "unknown class", 2), (#"\x{110000}"#, "", "hexadecimal", 1), (#"\xg"#, "", "hexadecimal", 1),
        ("((a{1000}){1000})", "", "larger than", 11), ("a", "g", "only 'i'", 3), ("ab", "ix", "only 'i'", 5),
        (String(repeating: "(", count: 300) + String(repeating: ")", count: 300), "", "nested", 251),
    ]

    /// What RE2 refuses (and what would compile too big) is refused when the rules are read, saying what and where.
    @Test func refusedConstructsSayWhatAndWhere() {
        for (pattern, flags, message, offset) in Self.refused {
            do {
                _ = try RuleRegex(pattern: pattern, flags: flags)
                Issue.record("/\(pattern)/\(flags) compiled")
            } catch {
                #expect(error.message.contains(message), "/\(pattern)/\(flags): \(error.message)")
                #expect(error.offset == offset, "/\(pattern)/\(flags): \(error.message)")
            }
        }
    }

    /// A refused expression in a rules file refuses the file, at the line and column of the construct.
    @Test func aRefusedExpressionPointsAtItsPlaceInTheFile() throws {
        let text = "{\"rules\": {\n  \"a\": {\n    \".validate\": \"newData.val().matches(/^(a)\\\\1$/)\"\n  }\n}}"
        do {
            _ = try RulesDocument.parse(text)
            Issue.record("accepted")
        } catch {
            #expect(error.line == 3)
            #expect(error.message.contains("backreferences"))
            // `    ".validate": "newData.val().matches(/^(a)` is 45 characters; the `\\1` starts at column 46.
            #expect(error.column == 46, "\(error)")
            #expect(error.description.hasPrefix("Error saving rules - Line 3: Invalid regular expression"))
        }
        let document = try RulesDocument.parse(
            #"{"rules": {"$k": {".write": true, ".validate": "newData.val().matches(/^[a-z]+\\d?$/i)"}}}"#)
        let after = try WriteValue(json: try JSONReader.parseValue(#"{"k": "Abc1"}"#), depth: 0).node
        #expect(document.allowsWrite(at: try Path(validating: "/k"), auth: .null, before: .empty, after: after, now: 0))
        let wrong = try WriteValue(json: try JSONReader.parseValue(#"{"k": "Abc12"}"#), depth: 0).node
        #expect(
            !document.allowsWrite(at: try Path(validating: "/k"), auth: .null, before: .empty, after: wrong, now: 0))
    }
}
