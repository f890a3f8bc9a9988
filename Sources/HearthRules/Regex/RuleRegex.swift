/// A regular expression literal of the rules (`/^[a-z]+$/i`, the argument of `matches`), in RE2's syntax and with
/// RE2's guarantee: compiled once, when the rules are read, into an NFA program that `matches` runs over all its
/// states at once, so a match costs at most (program size × text length) steps and never backtracks.
///
/// Matching runs over Unicode scalars (as RE2 over UTF-8 runs over code points): `.` is one scalar, not one
/// grapheme. The flag `i` ignores case by simple (one-scalar) case mappings, which covers ASCII and most scripts.
/// `\d \w \s \b` are ASCII, as in RE2. Refused, as RE2 refuses them: backreferences, lookahead and lookbehind;
/// refused as too costly: repetition counts above 1000 and programs above `maximumProgramSize` instructions.
public struct RuleRegex: Sendable, Equatable, CustomStringConvertible {
    /// The pattern between the slashes, as written (escapes kept).
    public let pattern: String
    /// The flags after the closing slash: empty or `i`.
    public let flags: String
    /// The compiled NFA `matches` runs.
    let program: Program

    /// The most instructions a compiled expression may have: a match costs up to this many steps per scalar.
    public static let maximumProgramSize = 20_000

    /// Compiles `/pattern/flags`.
    /// - Throws: `RuleSyntaxError` saying what is refused, at an offset counted from the opening `/`.
    public init(pattern: String, flags: String) throws(RuleSyntaxError) {
        var flagOffset = pattern.utf8.count + 2
        for flag in flags.unicodeScalars {
            guard flag == "i" else {
                throw RuleSyntaxError(
                    "Unsupported regular expression flag '\(flag)'; only 'i' (ignore case) is allowed.",
                    offset: flagOffset)
            }
            flagOffset += UTF8.width(flag)
        }
        var parser = Parser(pattern, foldsCase: !flags.isEmpty)
        let syntax: Syntax
        do {
            syntax = try parser.parse()
        } catch {
            throw RuleSyntaxError(error.message, offset: error.offset + 1)
        }
        guard syntax.programSize < Self.maximumProgramSize else {
            throw RuleSyntaxError(
                "Invalid regular expression: it compiles to more than \(Self.maximumProgramSize) steps.", offset: 0)
        }
        self.pattern = pattern
        self.flags = flags
        self.program = Program(syntax)
    }

    /// Whether the expression matches anywhere in `text` (anchor it with `^` and `$` for a whole match), spending
    /// the steps it takes from `budget`.
    /// - Throws: `RuleEvaluationError` when the budget runs out first.
    func matches(_ text: String, budget: inout RuleBudget) throws(RuleEvaluationError) -> Bool {
        try Matcher(self.program).matches(text, budget: &budget)
    }

    /// Two literals are equal when written alike (the program follows from the text).
    public static func == (left: RuleRegex, right: RuleRegex) -> Bool {
        left.pattern == right.pattern && left.flags == right.flags
    }

    /// The literal as written: `/pattern/flags`.
    public var description: String { "/\(self.pattern)/\(self.flags)" }
}
