extension RuleRegex {
    /// A parsed regular expression, before it is compiled: only what a yes-or-no match needs (groups are just
    /// their content; greedy and lazy repetitions are the same).
    indirect enum Syntax: Sendable, Equatable {
        /// Matches the empty string (`()`, an empty alternative).
        case empty
        /// One scalar from a set.
        case scalar(ScalarSet)
        /// A zero-width test.
        case assertion(Assertion)
        /// Each item in turn.
        case concatenation([Syntax])
        /// Any one of the items (`a|b`).
        case alternation([Syntax])
        /// `x{min,max}`; `max` nil for no upper bound (`*`, `+`, `{n,}`).
        case repetition(Syntax, min: Int, max: Int?)

        /// How many instructions the compiled program spends on this (see `Compiler`), saturating at `Int.max`.
        var programSize: Int {
            switch self {
            case .empty: return 0
            case .scalar, .assertion: return 1
            case .concatenation(let items): return items.reduce(0) { Self.sum($0, $1.programSize) }
            case .alternation(let items):
                return items.reduce(Self.product(2, items.count - 1)) { Self.sum($0, $1.programSize) }
            case .repetition(let item, let min, let max):
                let size = item.programSize
                let required = Self.product(size, min)
                guard let max else { return Self.sum(required, min == 0 ? Self.sum(size, 2) : 1) }
                return Self.sum(required, Self.product(Self.sum(size, 1), max - min))
            }
        }

        private static func sum(_ a: Int, _ b: Int) -> Int {
            let (result, overflow) = a.addingReportingOverflow(b)
            return overflow ? Int.max : result
        }

        private static func product(_ a: Int, _ b: Int) -> Int {
            let (result, overflow) = a.multipliedReportingOverflow(by: b)
            return overflow ? Int.max : result
        }
    }

    /// A zero-width test at a position between two scalars.
    enum Assertion: Sendable, Equatable {
        /// `^` or `\A`: the start of the text (RE2 without the `m` flag).
        case textStart
        /// `$` or `\z`: the end of the text (RE2 without the `m` flag: not before a final newline).
        case textEnd
        /// `\b`: between a word scalar (`\w`) and a non-word one or an end.
        case wordBoundary
        /// `\B`: not at a word boundary.
        case notWordBoundary

        /// Whether the test holds between `previous` and `next` (nil at the ends of the text).
        func holds(after previous: Unicode.Scalar?, before next: Unicode.Scalar?) -> Bool {
            switch self {
            case .textStart: return previous == nil
            case .textEnd: return next == nil
            case .wordBoundary: return Self.isWord(previous) != Self.isWord(next)
            case .notWordBoundary: return Self.isWord(previous) == Self.isWord(next)
            }
        }

        private static func isWord(_ scalar: Unicode.Scalar?) -> Bool {
            scalar.map { ScalarSet.word.contains($0) } ?? false
        }
    }
}
