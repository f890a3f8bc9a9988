/// The binary operators other than `&&` and `||`. Each spends a step per byte of the strings it reads (comparing
/// or joining them), so long strings cost what they weigh.
enum RuleOperators {
    static func apply(_ symbol: String, _ left: RuleValue, _ right: RuleValue, budget: inout RuleBudget)
        throws(RuleEvaluationError) -> RuleValue
    {
        if case .snapshot = left { throw Self.mismatch(symbol, left, right) }
        if case .snapshot = right { throw Self.mismatch(symbol, left, right) }
        try budget.spend(Self.weight(left) + Self.weight(right))
        switch symbol {
        case "==", "===": return .bool(Self.equal(left, right))
        case "!=", "!==": return .bool(!Self.equal(left, right))
        case "<", "<=", ">", ">=": return .bool(try Self.compare(symbol, left, right))
        case "+":
            switch (left, right) {
            case (.number(let a), .number(let b)): return .number(a + b)
            case (.string(let a), .string(let b)): return .string(a + b)
            case (.string(let a), .number(let b)): return .string(a + Self.text(b))
            case (.number(let a), .string(let b)): return .string(Self.text(a) + b)
            default: throw Self.mismatch(symbol, left, right)
            }
        default:
            guard case .number(let a) = left, case .number(let b) = right else {
                throw Self.mismatch(symbol, left, right)
            }
            switch symbol {
            case "-": return .number(a - b)
            case "*": return .number(a * b)
            case "/": return .number(a / b)
            default: return .number(a.truncatingRemainder(dividingBy: b))
            }
        }
    }

    /// What reading a value costs: a string's bytes (a number or boolean is one step; objects were paid for when
    /// `val()` built them).
    private static func weight(_ value: RuleValue) -> Int {
        if case .string(let text) = value { return text.utf8.count }
        return 1
    }

    /// Equality without coercion (snapshots never reach it: compare their `val()`).
    static func equal(_ left: RuleValue, _ right: RuleValue) -> Bool {
        left == right
    }

    private static func compare(_ symbol: String, _ left: RuleValue, _ right: RuleValue) throws(RuleEvaluationError)
        -> Bool
    {
        let order: Int
        switch (left, right) {
        case (.number(let a), .number(let b)): order = a < b ? -1 : (a == b ? 0 : 1)
        case (.string(let a), .string(let b)): order = a < b ? -1 : (a == b ? 0 : 1)
        default: throw Self.mismatch(symbol, left, right)
        }
        switch symbol {
        case "<": return order < 0
        case "<=": return order <= 0
        case ">": return order > 0
        default: return order >= 0
        }
    }

    /// A number as JavaScript writes it in a string: integers without a fraction.
    static func text(_ number: Double) -> String {
        if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
        return String(number)
    }

    private static func mismatch(_ symbol: String, _ left: RuleValue, _ right: RuleValue) -> RuleEvaluationError {
        RuleEvaluationError("'\(symbol)' cannot apply to a \(left.typeName) and a \(right.typeName).")
    }
}
