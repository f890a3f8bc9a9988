extension RuleRegex {
    /// Reads a pattern in RE2's syntax into `Syntax`, refusing what RE2 refuses (backreferences, lookaround) and
    /// what would make the compiled program too big, with where in the pattern the problem is (a UTF-8 offset).
    ///
    /// Accepted: literals and escapes of punctuation, `.`, classes `[...]` with ranges, negation, `\d \w \s` and
    /// their negations inside and `[:alpha:]`-style names, `\d \D \w \W \s \S`, `\n \t \r \f \v \a`, `\x41`,
    /// `\x{1F600}`, octal `\0`…`\077`, anchors `^ $ \A \z`, `\b \B`, groups `( )`, `(?: )`, `(?P<name> )`,
    /// `(?<name> )`, flag groups `(?i)`, `(?s)`, `(?i: )` (flags `i` and `s`, and `-` to clear them), alternation
    /// `|`, and the quantifiers `* + ? {n} {n,} {n,m}` with their lazy forms (the same for a yes-or-no match).
    struct Parser {
        private let scalars: [Unicode.Scalar]
        /// The UTF-8 offset of each scalar in the pattern, and of the pattern's end.
        private let offsets: [Int]
        private var index = 0
        /// The flags in force where the parser is: `i` (fold case) and `s` (`.` matches a newline).
        private var foldsCase: Bool
        private var dotMatchesNewline = false
        private var depth = 0

        /// RE2's largest repetition count.
        static let maximumRepetition = 1000
        /// The deepest nesting of groups: far beyond what a rule needs, and shallow enough that compiling it
        /// recurses safely on any thread's stack.
        static let maximumDepth = 250

        /// A parser of `pattern`, ignoring case from the start when `foldsCase` (the flag `i`).
        init(_ pattern: String, foldsCase: Bool) {
            self.scalars = Array(pattern.unicodeScalars)
            var offsets: [Int] = []
            var offset = 0
            for scalar in self.scalars {
                offsets.append(offset)
                offset += UTF8.width(scalar)
            }
            offsets.append(offset)
            self.offsets = offsets
            self.foldsCase = foldsCase
        }

        /// The whole pattern.
        mutating func parse() throws(RuleSyntaxError) -> Syntax {
            let syntax = try self.alternation()
            if self.index < self.scalars.count { throw self.error("unmatched ')'", at: self.index) }
            return syntax
        }

        private var current: Unicode.Scalar? { self.index < self.scalars.count ? self.scalars[self.index] : nil }

        /// The error for `detail` at the scalar `index`, with the UTF-8 offset of that scalar.
        private func error(_ detail: String, at index: Int) -> RuleSyntaxError {
            RuleSyntaxError(
                "Invalid regular expression: \(detail).", offset: self.offsets[min(index, self.offsets.count - 1)])
        }

        /// `a|b|…` up to a `)` or the end.
        private mutating func alternation() throws(RuleSyntaxError) -> Syntax {
            var branches = [try self.concatenation()]
            while self.current == "|" {
                self.index += 1
                branches.append(try self.concatenation())
            }
            return branches.count == 1 ? branches[0] : .alternation(branches)
        }

        /// Quantified atoms up to a `|`, a `)` or the end.
        private mutating func concatenation() throws(RuleSyntaxError) -> Syntax {
            var items: [Syntax] = []
            while let scalar = self.current, scalar != "|", scalar != ")" {
                let start = self.index
                if Self.isQuantifierStart(scalar), self.quantifier() != nil {
                    throw self.error("nothing to repeat before '\(scalar)'", at: start)
                }
                self.index = start
                guard let atom = try self.atom() else { continue }
                items.append(try self.quantified(atom))
            }
            if items.isEmpty { return .empty }
            return items.count == 1 ? items[0] : .concatenation(items)
        }

        /// Whether `scalar` may start a quantifier.
        private static func isQuantifierStart(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "*" || scalar == "+" || scalar == "?" || scalar == "{"
        }

        /// `atom` with the quantifier that follows it, if any (and its lazy `?`); a second quantifier is refused,
        /// as RE2 refuses `a**`.
        private mutating func quantified(_ atom: Syntax) throws(RuleSyntaxError) -> Syntax {
            let start = self.index
            guard let (min, max) = try self.checkedQuantifier() else { return atom }
            if self.current == "?" { self.index += 1 }
            if let next = self.current, Self.isQuantifierStart(next) {
                let second = self.index
                if self.quantifier() != nil { throw self.error("a repetition cannot be repeated", at: second) }
                self.index = second
            }
            let repetition = Syntax.repetition(atom, min: min, max: max)
            if repetition.programSize > RuleRegex.maximumProgramSize {
                throw self.error(
                    "the repetition makes the expression larger than \(RuleRegex.maximumProgramSize) steps", at: start)
            }
            return repetition
        }

        /// A quantifier at the current position with its counts checked against RE2's limit, or nil (position kept)
        /// when there is none (a `{` that does not start `{n}`, `{n,}` or `{n,m}` is a literal, as in RE2).
        private mutating func checkedQuantifier() throws(RuleSyntaxError) -> (Int, Int?)? {
            let start = self.index
            guard let counts = self.quantifier() else { return nil }
            let (min, max) = counts
            guard min <= Self.maximumRepetition, (max ?? 0) <= Self.maximumRepetition else {
                throw self.error("repetition counts are at most \(Self.maximumRepetition)", at: start)
            }
            if let max, max < min { throw self.error("the repetition {\(min),\(max)} has max below min", at: start) }
            return counts
        }

        /// Reads `* + ? {n} {n,} {n,m}` (counts clamped, so a huge count cannot trap), or leaves the position
        /// unchanged and answers nil.
        private mutating func quantifier() -> (Int, Int?)? {
            switch self.current {
            case "*":
                self.index += 1
                return (0, nil)
            case "+":
                self.index += 1
                return (1, nil)
            case "?":
                self.index += 1
                return (0, 1)
            case "{":
                let start = self.index
                self.index += 1
                guard let min = self.count() else {
                    self.index = start
                    return nil
                }
                var max: Int? = min
                if self.current == "," {
                    self.index += 1
                    max = self.count()
                }
                guard self.current == "}" else {
                    self.index = start
                    return nil
                }
                self.index += 1
                return (min, max)
            default: return nil
            }
        }

        /// Decimal digits, clamped just above the largest repetition; nil when there are none.
        private mutating func count() -> Int? {
            var value: Int?
            while let scalar = self.current, let digit = Self.digit(scalar, radix: 10) {
                value = Swift.min((value ?? 0) * 10 + digit, Self.maximumRepetition + 1)
                self.index += 1
            }
            return value
        }

        /// The value of an ASCII digit in `radix`, or nil.
        private static func digit(_ scalar: Unicode.Scalar, radix: Int) -> Int? {
            guard scalar.isASCII, let digit = Int(String(scalar), radix: radix) else { return nil }
            return digit
        }

        /// One atom, or nil for a flag group `(?i)` that only changes the flags.
        private mutating func atom() throws(RuleSyntaxError) -> Syntax? {
            guard let scalar = self.current else { return .empty }
            let start = self.index
            self.index += 1
            switch scalar {
            case "(": return try self.group(openedAt: start)
            case "[": return .scalar(try self.characterClass(openedAt: start))
            case ".":
                return .scalar(self.dotMatchesNewline ? ScalarSet([0...ScalarSet.maximum]) : ScalarSet.anyButNewline)
            case "^": return .assertion(.textStart)
            case "$": return .assertion(.textEnd)
            case "\\":
                switch try self.escape(startingAt: start, inClass: false) {
                case .set(let set): return .scalar(set)
                case .assertion(let assertion): return .assertion(assertion)
                }
            default: return .scalar(self.literal(scalar.value))
            }
        }

        /// The set of one scalar, folding case when `i` is in force.
        private func literal(_ value: UInt32) -> ScalarSet {
            ScalarSet([value...value], foldsCase: self.foldsCase)
        }

        /// After `(`: a group, or nil for `(?flags)`.
        private mutating func group(openedAt start: Int) throws(RuleSyntaxError) -> Syntax? {
            let savedFlags = (self.foldsCase, self.dotMatchesNewline)
            if self.current == "?" {
                self.index += 1
                guard try self.groupPrefix(openedAt: start) else { return nil }
            }
            guard self.depth < Self.maximumDepth else {
                throw self.error("groups are nested more than \(Self.maximumDepth) deep", at: start)
            }
            self.depth += 1
            let inner = try self.alternation()
            self.depth -= 1
            guard self.current == ")" else { throw self.error("missing ')' for the '(' here", at: start) }
            self.index += 1
            (self.foldsCase, self.dotMatchesNewline) = savedFlags
            return inner
        }

        /// After `(?`: reads `:`, `P<name>`, `<name>` or flags; answers whether a group's content follows (false
        /// for `(?flags)`, which sets the flags for the rest of the enclosing group). Refuses lookaround, which RE2
        /// does not have.
        private mutating func groupPrefix(openedAt start: Int) throws(RuleSyntaxError) -> Bool {
            switch self.current {
            case ":":
                self.index += 1
                return true
            case "=", "!":
                throw self.error(
                    "lookahead '(?\(self.current ?? "=")' is not supported (RE2 has no lookaround)", at: start)
            case "<" where self.index + 1 < self.scalars.count && ["=", "!"].contains(self.scalars[self.index + 1]):
                throw self.error("lookbehind '(?<' is not supported (RE2 has no lookaround)", at: start)
            case "P", "<":
                if self.current == "P" { self.index += 1 }
                guard self.current == "<" else { throw self.error("a named group is written (?P<name>…)", at: start) }
                self.index += 1
                let nameStart = self.index
                while let scalar = self.current, ScalarSet.word.contains(scalar) { self.index += 1 }
                guard self.index > nameStart, self.current == ">" else {
                    throw self.error("a group name is letters, digits and '_', closed by '>'", at: start)
                }
                self.index += 1
                return true
            default:
                return try self.flags(openedAt: start)
            }
        }

        /// `(?is-s)` or `(?i:`: sets the flags; answers whether a group's content follows.
        private mutating func flags(openedAt start: Int) throws(RuleSyntaxError) -> Bool {
            var value = true
            var sawFlag = false
            while let scalar = self.current {
                self.index += 1
                switch scalar {
                case "i": self.foldsCase = value
                case "s": self.dotMatchesNewline = value
                case "-" where value: value = false
                case ":" where sawFlag: return true
                case ")" where sawFlag: return false
                default:
                    throw self.error(
                        "unsupported group syntax '(?\(String(scalar))' (RE2's groups: (…), (?:…), (?P<name>…), (?i))",
                        at: start)
                }
                sawFlag = true
            }
            throw self.error("missing ')' for the '(' here", at: start)
        }

        /// What an escape stands for.
        private enum Escape {
            case set(ScalarSet)
            case assertion(Assertion)
        }

        /// After `\` at `start`.
        private mutating func escape(startingAt start: Int, inClass: Bool) throws(RuleSyntaxError) -> Escape {
            guard let scalar = self.current else { throw self.error("the pattern ends with '\\'", at: start) }
            self.index += 1
            switch scalar {
            case "d": return .set(ScalarSet.digits)
            case "D": return .set(Self.negated(ScalarSet.digits))
            case "w": return .set(ScalarSet.word)
            case "W": return .set(Self.negated(ScalarSet.word))
            case "s": return .set(ScalarSet.space)
            case "S": return .set(Self.negated(ScalarSet.space))
            case "n": return .set(self.literal(0x0A))
            case "t": return .set(self.literal(0x09))
            case "r": return .set(self.literal(0x0D))
            case "f": return .set(self.literal(0x0C))
            case "v": return .set(self.literal(0x0B))
            case "a": return .set(self.literal(0x07))
            case "x": return .set(self.literal(try self.hexadecimal(escapeAt: start)))
            case "0": return .set(self.literal(self.octal()))
            case "A" where !inClass: return .assertion(.textStart)
            case "z" where !inClass: return .assertion(.textEnd)
            case "b" where !inClass: return .assertion(.wordBoundary)
            case "B" where !inClass: return .assertion(.notWordBoundary)
            case "1"..."9":
                throw self.error("backreferences like '\\\(scalar)' are not supported (RE2 has none)", at: start)
            case "p", "P":
                throw self.error("Unicode classes '\\\(scalar)' are not supported in rules", at: start)
            default:
                guard scalar.isASCII, !ScalarSet.word.contains(scalar) else {
                    throw self.error("invalid escape '\\\(scalar)'", at: start)
                }
                return .set(self.literal(scalar.value))
            }
        }

        /// `\D`, `\W`, `\S`: everything but the set.
        private static func negated(_ set: ScalarSet) -> ScalarSet {
            ScalarSet(set.ranges, isNegated: true)
        }

        /// After `\x`: two hexadecimal digits or `{digits}` naming a scalar.
        private mutating func hexadecimal(escapeAt start: Int) throws(RuleSyntaxError) -> UInt32 {
            let braced = self.current == "{"
            if braced { self.index += 1 }
            var value: UInt32 = 0
            var digits = 0
            while let scalar = self.current, let digit = Self.digit(scalar, radix: 16), braced || digits < 2 {
                value = Swift.min(value * 16 + UInt32(digit), ScalarSet.maximum + 1)
                digits += 1
                self.index += 1
            }
            if braced {
                guard self.current == "}" else {
                    throw self.error("'\\x{' needs hexadecimal digits and '}'", at: start)
                }
                self.index += 1
            }
            guard digits > 0, braced || digits == 2, value <= ScalarSet.maximum, Unicode.Scalar(value) != nil else {
                throw self.error("invalid hexadecimal escape", at: start)
            }
            return value
        }

        /// After `\0`: up to two more octal digits.
        private mutating func octal() -> UInt32 {
            var value: UInt32 = 0
            var digits = 0
            while digits < 2, let scalar = self.current, let digit = Self.digit(scalar, radix: 8) {
                value = value * 8 + UInt32(digit)
                digits += 1
                self.index += 1
            }
            return value
        }

        /// After `[` at `start`: the class up to its `]`.
        private mutating func characterClass(openedAt start: Int) throws(RuleSyntaxError) -> ScalarSet {
            var isNegated = false
            if self.current == "^" {
                isNegated = true
                self.index += 1
            }
            var ranges: [ClosedRange<UInt32>] = []
            var first = true
            while let scalar = self.current, scalar != "]" || first {
                first = false
                let itemStart = self.index
                if scalar == "[", let named = try self.posixClass() {
                    ranges += named
                    continue
                }
                let low = try self.classItem()
                guard case .single(let lowValue) = low else {
                    if case .set(let set) = low { ranges += set.positiveRanges }
                    continue
                }
                if self.current == "-", self.index + 1 < self.scalars.count, self.scalars[self.index + 1] != "]" {
                    self.index += 1
                    guard case .single(let highValue) = try self.classItem(), lowValue <= highValue else {
                        throw self.error("bad range in a character class", at: itemStart)
                    }
                    ranges.append(lowValue...highValue)
                } else {
                    ranges.append(lowValue...lowValue)
                }
            }
            guard self.current == "]" else { throw self.error("missing ']' for the '[' here", at: start) }
            self.index += 1
            return ScalarSet(ranges, isNegated: isNegated, foldsCase: self.foldsCase)
        }

        /// One member of a class: a scalar (which may start a range) or a set such as `\d`.
        private enum ClassItem {
            case single(UInt32)
            case set(ScalarSet)
        }

        /// One scalar or escape inside `[...]`.
        private mutating func classItem() throws(RuleSyntaxError) -> ClassItem {
            guard let scalar = self.current else { return .single(0) }
            let start = self.index
            self.index += 1
            guard scalar == "\\" else { return .single(scalar.value) }
            guard case .set(let set) = try self.escape(startingAt: start, inClass: true) else {
                throw self.error("an assertion cannot be in a character class", at: start)
            }
            if set.ranges.count == 1, !set.isNegated, let range = set.ranges.first, range.count == 1 {
                return .single(range.lowerBound)
            }
            return .set(set)
        }

        /// `[:alpha:]` and the other ASCII classes RE2 names, or nil (position kept) when this `[` is a literal.
        private mutating func posixClass() throws(RuleSyntaxError) -> [ClosedRange<UInt32>]? {
            guard self.index + 1 < self.scalars.count, self.scalars[self.index + 1] == ":" else { return nil }
            let start = self.index
            var end = self.index + 2
            while end + 1 < self.scalars.count, !(self.scalars[end] == ":" && self.scalars[end + 1] == "]") { end += 1 }
            guard end + 1 < self.scalars.count else { return nil }
            var name = String(String.UnicodeScalarView(self.scalars[(start + 2)..<end]))
            let isNegated = name.hasPrefix("^")
            if isNegated { name.removeFirst() }
            guard let ranges = Self.posixClasses[name] else {
                throw self.error("unknown class name '[:\(name):]'", at: start)
            }
            self.index = end + 2
            return isNegated ? ScalarSet.complement(ScalarSet.normalized(ranges)) : ranges
        }

        /// RE2's ASCII class names, as in `[[:alpha:]]`.
        private static let posixClasses: [String: [ClosedRange<UInt32>]] = [
            "alnum": [0x30...0x39, 0x41...0x5A, 0x61...0x7A],
            "alpha": [0x41...0x5A, 0x61...0x7A],
            "ascii": [0x00...0x7F],
            "blank": [0x09...0x09, 0x20...0x20],
            "cntrl": [0x00...0x1F, 0x7F...0x7F],
            "digit": [0x30...0x39],
            "graph": [0x21...0x7E],
            "lower": [0x61...0x7A],
            "print": [0x20...0x7E],
            "punct": [0x21...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E],
            "space": [0x09...0x0D, 0x20...0x20],
            "upper": [0x41...0x5A],
            "word": [0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A],
            "xdigit": [0x30...0x39, 0x41...0x46, 0x61...0x66],
        ]
    }
}
