import HearthCore

/// Evaluates rule expressions as Firebase does: no type coercion (`==` of different types is false, `<` of
/// different types an error), `&&` and `||` short-circuit and need booleans, and any error makes the rule grant
/// nothing (`grants` returns false).
public struct RuleEvaluator: Sendable {
    public let context: RuleContext

    public init(context: RuleContext) {
        self.context = context
    }

    /// Whether `expression` evaluates to `true`; an error or any other value is false.
    public func grants(_ expression: RuleExpression) -> Bool {
        var reads = RuleReads()
        return self.grants(expression, reads: &reads)
    }

    /// Whether `expression` evaluates to `true`, adding the data it looked at to `reads` (whatever the answer:
    /// a refusal may depend on data as much as a grant).
    public func grants(_ expression: RuleExpression, reads: inout RuleReads) -> Bool {
        var budget = RuleBudget()
        return self.grants(expression, reads: &reads, budget: &budget)
    }

    /// Whether `expression` evaluates to `true` within what is left of `budget` (running out is an error, so
    /// false).
    public func grants(_ expression: RuleExpression, reads: inout RuleReads, budget: inout RuleBudget) -> Bool {
        (try? self.evaluate(expression, reads: &reads, budget: &budget)) == .bool(true)
    }

    public func evaluate(_ expression: RuleExpression) throws(RuleEvaluationError) -> RuleValue {
        var reads = RuleReads()
        return try self.evaluate(expression, reads: &reads)
    }

    public func evaluate(_ expression: RuleExpression, reads: inout RuleReads) throws(RuleEvaluationError)
        -> RuleValue
    {
        var budget = RuleBudget()
        return try self.evaluate(expression, reads: &reads, budget: &budget)
    }

    /// The value of `expression`, spending one step of `budget` per node of it and what its operations cost.
    public func evaluate(_ expression: RuleExpression, reads: inout RuleReads, budget: inout RuleBudget)
        throws(RuleEvaluationError) -> RuleValue
    {
        try budget.spend(1)
        switch expression {
        case .null: return .null
        case .bool(let value): return .bool(value)
        case .number(let value): return .number(value)
        case .string(let value): return .string(value)
        case .regex(let regex): return .regex(regex)
        case .array(let items):
            var values: [RuleValue] = []
            for item in items { values.append(try self.evaluate(item, reads: &reads, budget: &budget)) }
            return .array(values)
        case .variable(let name):
            guard let value = self.context.variable(name) else {
                throw RuleEvaluationError("Unknown variable '\(name)'.")
            }
            return value
        case .member(let target, let name):
            let value = try self.evaluate(target, reads: &reads, budget: &budget)
            return try self.member(value, name, budget: &budget)
        case .index(let target, let key):
            guard case .string(let name) = try self.evaluate(key, reads: &reads, budget: &budget) else {
                throw RuleEvaluationError("An index must be a string.")
            }
            let value = try self.evaluate(target, reads: &reads, budget: &budget)
            return try self.member(value, name, budget: &budget)
        case .call(let target, let name, let arguments):
            var values: [RuleValue] = []
            for argument in arguments { values.append(try self.evaluate(argument, reads: &reads, budget: &budget)) }
            return try RuleMethods.call(
                name, on: try self.evaluate(target, reads: &reads, budget: &budget), values, reads: &reads,
                budget: &budget)
        case .unary(let symbol, let operand):
            return try self.unary(symbol, try self.evaluate(operand, reads: &reads, budget: &budget))
        case .binary("&&", let left, let right):
            guard try self.boolean(left, "&&", reads: &reads, budget: &budget) else { return .bool(false) }
            return .bool(try self.boolean(right, "&&", reads: &reads, budget: &budget))
        case .binary("||", let left, let right):
            if try self.boolean(left, "||", reads: &reads, budget: &budget) { return .bool(true) }
            return .bool(try self.boolean(right, "||", reads: &reads, budget: &budget))
        case .binary(let symbol, let left, let right):
            let leftValue = try self.evaluate(left, reads: &reads, budget: &budget)
            return try RuleOperators.apply(
                symbol, leftValue, try self.evaluate(right, reads: &reads, budget: &budget), budget: &budget)
        case .conditional(let condition, let then, let otherwise):
            let chosen = try self.boolean(condition, "?:", reads: &reads, budget: &budget) ? then : otherwise
            return try self.evaluate(chosen, reads: &reads, budget: &budget)
        }
    }

    private func boolean(
        _ expression: RuleExpression, _ symbol: String, reads: inout RuleReads, budget: inout RuleBudget
    ) throws(RuleEvaluationError) -> Bool {
        guard case .bool(let value) = try self.evaluate(expression, reads: &reads, budget: &budget) else {
            throw RuleEvaluationError("'\(symbol)' needs booleans.")
        }
        return value
    }

    private func unary(_ symbol: String, _ value: RuleValue) throws(RuleEvaluationError) -> RuleValue {
        switch (symbol, value) {
        case ("!", .bool(let flag)): return .bool(!flag)
        case ("-", .number(let number)): return .number(-number)
        default: throw RuleEvaluationError("'\(symbol)' cannot apply to a \(value.typeName).")
        }
    }

    private func member(_ target: RuleValue, _ name: String, budget: inout RuleBudget) throws(RuleEvaluationError)
        -> RuleValue
    {
        switch target {
        case .object(let members):
            return members[JSONKey(name)] ?? .null
        case .string(let text) where name == "length":
            try budget.spend(text.utf8.count)
            return .number(Double(text.count))
        default:
            throw RuleEvaluationError("A \(target.typeName) has no property '\(name)'.")
        }
    }
}
