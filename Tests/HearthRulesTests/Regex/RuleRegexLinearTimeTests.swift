import HearthTestKit
import Testing

@testable import HearthRules

/// Matching never backtracks: the steps a match takes are bounded by (program size × text length) for patterns that
/// take exponential time in a backtracking engine, on texts of 10,000 scalars; and on small random patterns and
/// texts the engine answers as a plain backtracking reference does.
@Suite struct RuleRegexLinearTimeTests {
    /// (pattern, text): classic exponential cases for backtracking engines; none of them matches.
    static let pathological: [(String, String)] = [
        ("^(a|aa)+$", String(repeating: "a", count: 10_000) + "b"),
        ("(a|aa)+$", String(repeating: "a", count: 10_000) + "b"),
        ("(a*)*b", String(repeating: "a", count: 10_000)),
        ("(x+x+)+y", String(repeating: "x", count: 10_000)),
        ("^(a+)+$", String(repeating: "a", count: 10_000) + "!"),
        ("(.*a){20}$", String(repeating: "a", count: 10_000) + "b"),
        ("^(a?){30}a{30}$", String(repeating: "a", count: 29)),
        ("^(\\w+\\s?)*$", String(repeating: "word ", count: 2_000) + "!"),
        ("(([a-z])+.)+[A-Z]([a-z])+", String(repeating: "aaaaaaaaa.", count: 1_000)),
    ]

    /// Each pathological pattern is answered in at most (2 × program size + 2) steps per scalar, and correctly.
    @Test func pathologicalPatternsTakeLinearSteps() throws {
        for (pattern, text) in Self.pathological {
            let regex = try RuleRegex(pattern: pattern, flags: "")
            var budget = RuleBudget()
            #expect(try !regex.matches(text, budget: &budget), "/\(pattern)/")
            let size = regex.program.instructions.count
            let scalars = text.unicodeScalars.count
            #expect(budget.spent <= (2 * size + 2) * (scalars + 1), "/\(pattern)/ took \(budget.spent) steps")
        }
    }

    /// The issue's case: `/^(a|aa)+$/` on 40 `a`s and a `b` is refused in a few hundred steps.
    @Test func theIssuesPatternIsCheap() throws {
        let regex = try RuleRegex(pattern: "^(a|aa)+$", flags: "")
        var budget = RuleBudget()
        #expect(try !regex.matches(String(repeating: "a", count: 40) + "b", budget: &budget))
        #expect(budget.spent < 1_000)
    }

    /// A match that would need more steps than the budget left fails with an error instead of running on.
    @Test func aMatchStopsWhenTheBudgetRunsOut() throws {
        let regex = try RuleRegex(pattern: "(a|aa)+$", flags: "")
        var budget = RuleBudget(limit: 10_000)
        #expect(throws: RuleEvaluationError.self) {
            try regex.matches(String(repeating: "a", count: 100_000) + "b", budget: &budget)
        }
        #expect(budget.isExhausted)
    }

    /// On random small patterns over `a`, `b` and a space, and random texts, the engine agrees with a
    /// backtracking reference run over the same parsed syntax.
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func agreesWithABacktrackingReference(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        for _ in 0..<300 {
            let pattern = Self.pattern(depth: 2, using: &random)
            let flags = Int.random(in: 0..<4, using: &random) == 0 ? "i" : ""
            let regex = try RuleRegex(pattern: pattern, flags: flags)
            var parser = RuleRegex.Parser(pattern, foldsCase: !flags.isEmpty)
            let syntax = try parser.parse()
            for _ in 0..<8 {
                let length = Int.random(in: 0...6, using: &random)
                let text = String(
                    (0..<length).map { _ in ["a", "b", "A", " "][Int.random(in: 0..<4, using: &random)] })
                var budget = RuleBudget()
                let expected = BacktrackingReference(syntax: syntax, text: text).matchesAnywhere()
                #expect(try regex.matches(text, budget: &budget) == expected, "/\(pattern)/\(flags) on '\(text)'")
            }
        }
    }

    /// A random pattern: literals, `.`, classes, anchors, word boundaries, groups, alternation and quantifiers.
    private static func pattern(depth: Int, using random: inout SeededRandom) -> String {
        let atoms = ["a", "b", ".", "[ab]", "[^a]", "\\s", "\\w", "^", "$", "\\b", "\\B", "()"]
        var result = ""
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            var atom = atoms[Int.random(in: 0..<atoms.count, using: &random)]
            if depth > 0, Int.random(in: 0..<3, using: &random) == 0 {
                let inner = (0..<Int.random(in: 1...3, using: &random)).map { _ in
                    Self.pattern(depth: depth - 1, using: &random)
                }
                atom = "(" + inner.joined(separator: "|") + ")"
            }
            let quantifiers = ["", "", "*", "+", "?", "{2}", "{0,2}", "{1,}", "*?"]
            result += atom + quantifiers[Int.random(in: 0..<quantifiers.count, using: &random)]
        }
        return result
    }
}

/// A plain backtracking matcher over `RuleRegex.Syntax`, exponential but obviously right, to check the NFA
/// against on small inputs.
struct BacktrackingReference {
    let syntax: RuleRegex.Syntax
    let scalars: [Unicode.Scalar]

    init(syntax: RuleRegex.Syntax, text: String) {
        self.syntax = syntax
        self.scalars = Array(text.unicodeScalars)
    }

    /// Whether the syntax matches starting at some position.
    func matchesAnywhere() -> Bool {
        (0...self.scalars.count).contains { start in self.match(self.syntax, at: start) { _ in true } }
    }

    private func match(_ syntax: RuleRegex.Syntax, at position: Int, then rest: (Int) -> Bool) -> Bool {
        switch syntax {
        case .empty: return rest(position)
        case .scalar(let set):
            guard position < self.scalars.count, set.contains(self.scalars[position]) else { return false }
            return rest(position + 1)
        case .assertion(let assertion):
            let previous = position > 0 ? self.scalars[position - 1] : nil
            let next = position < self.scalars.count ? self.scalars[position] : nil
            return assertion.holds(after: previous, before: next) && rest(position)
        case .concatenation(let items):
            return self.sequence(items[...], at: position, then: rest)
        case .alternation(let items):
            return items.contains { self.match($0, at: position, then: rest) }
        case .repetition(let item, let min, let max):
            return self.repeated(item, min: min, max: max, done: 0, at: position, then: rest)
        }
    }

    private func sequence(_ items: ArraySlice<RuleRegex.Syntax>, at position: Int, then rest: (Int) -> Bool) -> Bool {
        guard let first = items.first else { return rest(position) }
        return self.match(first, at: position) { self.sequence(items.dropFirst(), at: $0, then: rest) }
    }

    /// `done` copies matched so far; a further copy beyond `min` must consume something (so `(a*)*` ends).
    private func repeated(
        _ item: RuleRegex.Syntax, min: Int, max: Int?, done: Int, at position: Int, then rest: (Int) -> Bool
    ) -> Bool {
        if done >= min, rest(position) { return true }
        if let max, done >= max { return false }
        return self.match(item, at: position) { next in
            if next == position, done >= min { return false }
            return self.repeated(item, min: min, max: max, done: done + 1, at: next, then: rest)
        }
    }
}
