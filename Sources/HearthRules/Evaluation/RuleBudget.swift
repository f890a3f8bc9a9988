/// How much work the rules may do for one request: every expression evaluated, every data node a `val()` copies,
/// every byte a string operation reads or builds, and every step of a regular expression match spends from it.
/// When it runs out the evaluation fails and the request is refused (as Firebase refuses rules that are too costly),
/// so no request can hold a thread for long, whatever the rules and the data.
public struct RuleBudget: Sendable, Equatable {
    /// The default: 20 million steps (a regex step measures ~0.7 µs in a debug build, a few tens of nanoseconds
    /// optimized: well under a second), far above what ordinary rules spend on an ordinary request — a write of
    /// 100,000 children each with a small `.validate` spends a few million; a small pattern such as `/^[a-z]+$/`
    /// spends about 4 steps per character, so strings of up to ~5 MB can be matched.
    public static let defaultLimit = 20_000_000

    /// The most steps the request may spend.
    public let limit: Int
    /// The steps spent so far.
    public private(set) var spent = 0

    public init(limit: Int = RuleBudget.defaultLimit) {
        self.limit = max(0, limit)
    }

    /// Whether the evaluation ran out of steps (it was refused for that).
    public var isExhausted: Bool { self.spent > self.limit }

    /// Spends `cost` steps.
    /// - Throws: `RuleEvaluationError` once more than `limit` are spent (and again at every later spend).
    mutating func spend(_ cost: Int) throws(RuleEvaluationError) {
        let (total, overflow) = self.spent.addingReportingOverflow(max(0, cost))
        self.spent = overflow ? Int.max : total
        guard self.spent <= self.limit else {
            throw RuleEvaluationError(
                "The rules are too costly for this request (more than \(self.limit) evaluation steps).")
        }
    }

    /// Whether `cost` more steps still fit, for work that must be checked before it is done (a string a
    /// `replace` would build).
    func allows(_ cost: Int) -> Bool {
        let (total, overflow) = self.spent.addingReportingOverflow(max(0, cost))
        return !overflow && total <= self.limit
    }
}
