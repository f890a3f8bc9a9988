/// Reads a rule expression: JavaScript's expression syntax restricted to what Firebase's rules allow, with its
/// precedence (from loosest: `?:`, `||`, `&&`, equality, comparison, `+ -`, `* / %`, unary `! -`, then `.`, calls
/// and `[]`).
///
/// The tree it builds is at most `maximumDepth` deep (nested brackets, unary operators and chains of binary ones
/// together), so that neither parsing nor evaluating an expression can run out of stack, whatever a rules file
/// holds.
public struct RuleParser {
    /// The deepest expression tree accepted; real rules stay far below it.
    public static let maximumDepth = 256

    private var tokens: [RuleToken] = []
    private var position = 0
    /// How deep the tree being built is at the current point.
    private var depth = 0

    /// - Throws: `RuleSyntaxError` naming what was unexpected and where.
    public static func parse(_ text: String) throws(RuleSyntaxError) -> RuleExpression {
        var lexer = RuleLexer(text)
        var parser = RuleParser()
        parser.tokens = try lexer.tokens()
        let expression = try parser.conditional()
        guard case .end = parser.current.kind else { throw parser.unexpected() }
        return expression
    }

    private static let levels: [[String]] = [
        ["||"], ["&&"], ["==", "===", "!=", "!=="], ["<", "<=", ">", ">="], ["+", "-"], ["*", "/", "%"],
    ]

    private var current: RuleToken { self.tokens[min(self.position, self.tokens.count - 1)] }

    private mutating func conditional() throws(RuleSyntaxError) -> RuleExpression {
        try self.descend()
        defer { self.depth -= 1 }
        let condition = try self.binary(level: 0)
        guard self.take("?") else { return condition }
        let then = try self.conditional()
        try self.expect(":")
        return .conditional(condition, then, try self.conditional())
    }

    private mutating func binary(level: Int) throws(RuleSyntaxError) -> RuleExpression {
        guard level < Self.levels.count else { return try self.unary() }
        var left = try self.binary(level: level + 1)
        let entered = self.depth
        defer { self.depth = entered }
        while case .symbol(let symbol) = self.current.kind, Self.levels[level].contains(symbol) {
            try self.descend()
            self.position += 1
            left = .binary(symbol, left, try self.binary(level: level + 1))
        }
        return left
    }

    private mutating func unary() throws(RuleSyntaxError) -> RuleExpression {
        if case .symbol(let symbol) = self.current.kind, symbol == "!" || symbol == "-" {
            try self.descend()
            defer { self.depth -= 1 }
            self.position += 1
            return .unary(symbol, try self.unary())
        }
        return try self.postfix(try self.primary())
    }

    private mutating func postfix(_ target: RuleExpression) throws(RuleSyntaxError) -> RuleExpression {
        var expression = target
        let entered = self.depth
        defer { self.depth = entered }
        while true {
            if case .symbol(let symbol) = self.current.kind, symbol == "." || symbol == "[" { try self.descend() }
            if self.take(".") {
                guard case .identifier(let name) = self.current.kind else { throw self.unexpected() }
                self.position += 1
                if self.take("(") {
                    expression = .call(expression, name, try self.list(closing: ")"))
                } else {
                    expression = .member(expression, name)
                }
            } else if self.take("[") {
                let key = try self.conditional()
                try self.expect("]")
                expression = .index(expression, key)
            } else {
                return expression
            }
        }
    }

    private mutating func primary() throws(RuleSyntaxError) -> RuleExpression {
        let token = self.current
        self.position += 1
        switch token.kind {
        case .number(let value): return .number(value)
        case .string(let value): return .string(value)
        case .regex(let pattern, let flags):
            do {
                return .regex(try RuleRegex(pattern: pattern, flags: flags))
            } catch {
                throw RuleSyntaxError(error.message, offset: token.offset + error.offset)
            }
        case .identifier("true"): return .bool(true)
        case .identifier("false"): return .bool(false)
        case .identifier("null"): return .null
        case .identifier(let name): return .variable(name)
        case .symbol("("):
            let inner = try self.conditional()
            try self.expect(")")
            return inner
        case .symbol("["): return .array(try self.list(closing: "]"))
        default:
            self.position -= 1
            throw self.unexpected()
        }
    }

    /// One level deeper into the tree; refuses a tree deeper than `maximumDepth`.
    private mutating func descend() throws(RuleSyntaxError) {
        self.depth += 1
        guard self.depth <= Self.maximumDepth else {
            throw RuleSyntaxError(
                "Expression nests too deeply (more than \(Self.maximumDepth) levels); split it into simpler rules.",
                offset: self.current.offset)
        }
    }

    /// Comma-separated expressions up to `closing` (already past the opening bracket).
    private mutating func list(closing: String) throws(RuleSyntaxError) -> [RuleExpression] {
        var items: [RuleExpression] = []
        if self.take(closing) { return items }
        repeat {
            items.append(try self.conditional())
        } while self.take(",")
        try self.expect(closing)
        return items
    }

    private mutating func take(_ symbol: String) -> Bool {
        guard case .symbol(symbol) = self.current.kind else { return false }
        self.position += 1
        return true
    }

    private mutating func expect(_ symbol: String) throws(RuleSyntaxError) {
        guard self.take(symbol) else { throw self.unexpected(expecting: symbol) }
    }

    private func unexpected(expecting: String? = nil) -> RuleSyntaxError {
        let found: String
        switch self.current.kind {
        case .end: found = "end of expression"
        case .number(let value): found = "number \(value)"
        case .string(let value): found = "string '\(value)'"
        case .regex(let pattern, _): found = "regular expression /\(pattern)/"
        case .identifier(let name): found = "'\(name)'"
        case .symbol(let symbol): found = "'\(symbol)'"
        }
        let hint = expecting.map { "; expected '\($0)'" } ?? ""
        return RuleSyntaxError("Unexpected \(found)\(hint).", offset: self.current.offset)
    }
}
