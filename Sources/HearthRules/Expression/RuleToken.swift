/// One token of a rule expression, with where it starts in the expression's text (a UTF-8 offset).
struct RuleToken: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case number(Double)
        case string(String)
        /// `/pattern/flags`, only where `matches(...)` takes it.
        case regex(pattern: String, flags: String)
        case identifier(String)
        /// An operator or punctuation: `. ( ) [ ] , ? : ! + - * / % < <= > >= == === != !== && ||`.
        case symbol(String)
        case end
    }

    let kind: Kind
    let offset: Int
}

/// Splits a rule expression into tokens. A `/` starts a regular expression where an operand is expected (after
/// `(`, `,` or at the start), and is division elsewhere, as in JavaScript.
struct RuleLexer {
    private let bytes: [UInt8]
    private var position = 0

    init(_ text: String) {
        self.bytes = Array(text.utf8)
    }

    private static let symbols = [
        "===", "!==", "==", "!=", "<=", ">=", "&&", "||", ".", "(", ")", "[", "]", ",", "?", ":", "!", "+", "-", "*",
        "/", "%", "<", ">",
    ]

    mutating func tokens() throws(RuleSyntaxError) -> [RuleToken] {
        var tokens: [RuleToken] = []
        while true {
            self.skipSpace()
            let start = self.position
            guard self.position < self.bytes.count else {
                tokens.append(RuleToken(kind: .end, offset: start))
                return tokens
            }
            let byte = self.bytes[self.position]
            if Self.isDigit(byte) {
                tokens.append(RuleToken(kind: .number(try self.number()), offset: start))
            } else if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                tokens.append(RuleToken(kind: .string(try self.string(quote: byte)), offset: start))
            } else if Self.isIdentifierStart(byte) {
                tokens.append(RuleToken(kind: .identifier(self.identifier()), offset: start))
            } else if byte == UInt8(ascii: "/") && Self.expectsOperand(after: tokens.last) {
                tokens.append(RuleToken(kind: try self.regex(), offset: start))
            } else {
                tokens.append(RuleToken(kind: .symbol(try self.symbol()), offset: start))
            }
        }
    }

    private static func expectsOperand(after token: RuleToken?) -> Bool {
        guard let token else { return true }
        if case .symbol(let symbol) = token.kind { return symbol == "(" || symbol == "," || symbol == "[" }
        return false
    }

    private mutating func skipSpace() {
        while self.position < self.bytes.count, [9, 10, 13, 32].contains(self.bytes[self.position]) {
            self.position += 1
        }
    }

    private mutating func number() throws(RuleSyntaxError) -> Double {
        let start = self.position
        while self.position < self.bytes.count,
            Self.isDigit(self.bytes[self.position]) || self.bytes[self.position] == UInt8(ascii: ".")
        {
            self.position += 1
        }
        let text = String(decoding: self.bytes[start..<self.position], as: UTF8.self)
        guard let value = Double(text) else { throw RuleSyntaxError("Invalid number \(text).", offset: start) }
        return value
    }

    private mutating func string(quote: UInt8) throws(RuleSyntaxError) -> String {
        let start = self.position
        self.position += 1
        var scalars: [UInt8] = []
        while self.position < self.bytes.count {
            let byte = self.bytes[self.position]
            self.position += 1
            if byte == quote { return String(decoding: scalars, as: UTF8.self) }
            if byte == UInt8(ascii: "\\"), self.position < self.bytes.count {
                let escaped = self.bytes[self.position]
                self.position += 1
                switch escaped {
                case UInt8(ascii: "n"): scalars.append(10)
                case UInt8(ascii: "t"): scalars.append(9)
                default: scalars.append(escaped)
                }
            } else {
                scalars.append(byte)
            }
        }
        throw RuleSyntaxError("Unterminated string.", offset: start)
    }

    private mutating func identifier() -> String {
        let start = self.position
        while self.position < self.bytes.count,
            Self.isIdentifierStart(self.bytes[self.position]) || Self.isDigit(self.bytes[self.position])
        {
            self.position += 1
        }
        return String(decoding: self.bytes[start..<self.position], as: UTF8.self)
    }

    private mutating func regex() throws(RuleSyntaxError) -> RuleToken.Kind {
        let start = self.position
        self.position += 1
        var pattern: [UInt8] = []
        while self.position < self.bytes.count, self.bytes[self.position] != UInt8(ascii: "/") {
            if self.bytes[self.position] == UInt8(ascii: "\\"), self.position + 1 < self.bytes.count {
                pattern.append(self.bytes[self.position])
                self.position += 1
            }
            pattern.append(self.bytes[self.position])
            self.position += 1
        }
        guard self.position < self.bytes.count else {
            throw RuleSyntaxError("Unterminated regular expression.", offset: start)
        }
        self.position += 1
        let flagsStart = self.position
        while self.position < self.bytes.count, Self.isIdentifierStart(self.bytes[self.position]) {
            self.position += 1
        }
        let flags = String(decoding: self.bytes[flagsStart..<self.position], as: UTF8.self)
        return .regex(pattern: String(decoding: pattern, as: UTF8.self), flags: flags)
    }

    private mutating func symbol() throws(RuleSyntaxError) -> String {
        for symbol in Self.symbols {
            let utf8 = Array(symbol.utf8)
            if self.bytes.count - self.position >= utf8.count,
                Array(self.bytes[self.position..<(self.position + utf8.count)]) == utf8
            {
                self.position += utf8.count
                return symbol
            }
        }
        let scalar = String(decoding: [self.bytes[self.position]], as: UTF8.self)
        throw RuleSyntaxError("Unexpected character '\(scalar)'.", offset: self.position)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (48...57).contains(byte) }

    private static func isIdentifierStart(_ byte: UInt8) -> Bool {
        (65...90).contains(byte) || (97...122).contains(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$")
    }
}
