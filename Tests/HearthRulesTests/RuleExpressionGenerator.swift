import Foundation
import HearthTestKit

@testable import HearthRules

/// Random rule expressions for property tests, and their text: fully parenthesised, or with only the parentheses
/// the precedence of Firebase's (JavaScript's) operators needs.
struct RuleExpressionGenerator {
    var random: SeededRandom

    static let variables = ["auth", "data", "newData", "root", "now", "query", "$x"]
    static let members = ["uid", "val", "length", "token", "orderByChild"]
    static let methods: [(name: String, arguments: Int)] = [
        ("child", 1), ("val", 0), ("exists", 0), ("hasChild", 1), ("parent", 0), ("contains", 1),
        ("beginsWith", 1), ("replace", 2), ("toLowerCase", 0),
    ]
    static let binaries = [
        "||", "&&", "==", "===", "!=", "!==", "<", "<=", ">", ">=", "+", "-", "*", "/", "%",
    ]
    static let strings = ["", "a", "ab", "Ab", "b/c", "it's", "x y"]
    /// `/^a.*/`, the regular expression the generated `matches` calls take.
    static let startsWithA: RuleRegex = {
        do {
            return try RuleRegex(pattern: "^a.*", flags: "")
        } catch {
            preconditionFailure("/^a.*/ compiles: \(error)")
        }
    }()

    init(seed: UInt64) {
        self.random = SeededRandom(seed: seed)
    }

    mutating func pick<T>(_ choices: [T]) -> T { choices[Int.random(in: 0..<choices.count, using: &self.random)] }

    /// A literal or a variable.
    mutating func atom() -> RuleExpression {
        switch Int.random(in: 0..<6, using: &self.random) {
        case 0: .number(Double(Int.random(in: 0...20, using: &self.random)))
        case 1: .string(self.pick(Self.strings))
        case 2: .bool(Bool.random(using: &self.random))
        case 3: .null
        default: .variable(self.pick(Self.variables))
        }
    }

    /// Any expression the parser accepts, `depth` levels deep at most.
    mutating func expression(depth: Int) -> RuleExpression {
        guard depth > 0, Int.random(in: 0..<4, using: &self.random) > 0 else { return self.atom() }
        let next = depth - 1
        switch Int.random(in: 0..<7, using: &self.random) {
        case 0: return .unary(self.pick(["!", "-"]), self.expression(depth: next))
        case 1: return .member(self.expression(depth: next), self.pick(Self.members))
        case 2:
            let method = self.pick(Self.methods)
            return .call(
                self.expression(depth: next), method.name, (0..<method.arguments).map { _ in self.atom() })
        case 3: return .index(self.expression(depth: next), self.atom())
        case 4:
            return .conditional(
                self.expression(depth: next), self.expression(depth: next), self.expression(depth: next))
        case 5: return .call(self.expression(depth: next), "matches", [.regex(Self.startsWithA)])
        default: return .binary(self.pick(Self.binaries), self.expression(depth: next), self.expression(depth: next))
        }
    }

    /// An expression that is mostly boolean-valued (comparisons, snapshot tests, logic), sometimes an error.
    mutating func condition(depth: Int) -> RuleExpression {
        guard depth > 0, Int.random(in: 0..<3, using: &self.random) > 0 else {
            switch Int.random(in: 0..<5, using: &self.random) {
            case 0: return .bool(Bool.random(using: &self.random))
            case 1: return .call(.variable(self.pick(["data", "newData", "root"])), "hasChild", [self.atom()])
            case 2: return .call(.call(.variable("data"), "child", [self.atom()]), "exists", [])
            default: return .binary(self.pick(["==", "!=", "<", ">=", "==="]), self.atom(), self.atom())
            }
        }
        let next = depth - 1
        switch Int.random(in: 0..<4, using: &self.random) {
        case 0: return .unary("!", self.condition(depth: next))
        case 1:
            return .conditional(self.condition(depth: next), self.condition(depth: next), self.condition(depth: next))
        default: return .binary(self.pick(["&&", "||"]), self.condition(depth: next), self.condition(depth: next))
        }
    }

    /// The expression's text with every compound part in parentheses.
    static func parenthesised(_ expression: RuleExpression) -> String {
        switch expression {
        case .unary(let symbol, let operand): "\(symbol)(\(Self.parenthesised(operand)))"
        case .binary(let symbol, let left, let right):
            "(\(Self.parenthesised(left))) \(symbol) (\(Self.parenthesised(right)))"
        case .conditional(let condition, let then, let otherwise):
            "(\(Self.parenthesised(condition))) ? (\(Self.parenthesised(then))) : (\(Self.parenthesised(otherwise)))"
        case .member(let target, let name): "(\(Self.parenthesised(target))).\(name)"
        case .index(let target, let key): "(\(Self.parenthesised(target)))[\(Self.parenthesised(key))]"
        case .call(let target, let name, let arguments):
            "(\(Self.parenthesised(target))).\(name)(\(arguments.map(Self.parenthesised).joined(separator: ", ")))"
        default: Self.literal(expression)
        }
    }

    /// The expression's text with only the parentheses precedence and associativity need.
    static func minimal(_ expression: RuleExpression) -> String {
        switch expression {
        case .unary(let symbol, let operand):
            // A space keeps `- -x` from reading as `--x`.
            let separator = if case .unary = operand { " " } else { "" }
            return symbol + separator + Self.wrap(operand, when: Self.precedence(operand) < Self.unaryPrecedence)
        case .binary(let symbol, let left, let right):
            let level = Self.precedence(expression)
            return Self.wrap(left, when: Self.precedence(left) < level) + " \(symbol) "
                + Self.wrap(right, when: Self.precedence(right) <= level)
        case .conditional(let condition, let then, let otherwise):
            return Self.wrap(condition, when: Self.precedence(condition) == 0) + " ? " + Self.minimal(then) + " : "
                + Self.minimal(otherwise)
        case .member(let target, let name):
            return Self.postfixTarget(target) + ".\(name)"
        case .index(let target, let key):
            return Self.postfixTarget(target) + "[\(Self.minimal(key))]"
        case .call(let target, let name, let arguments):
            return Self.postfixTarget(target) + ".\(name)(\(arguments.map(Self.minimal).joined(separator: ", ")))"
        default:
            return Self.literal(expression)
        }
    }

    private static let unaryPrecedence = 7

    /// How tightly an expression binds: 0 for `?:`, 1–6 for the binary levels, 7 unary, 8 postfix and atoms.
    private static func precedence(_ expression: RuleExpression) -> Int {
        switch expression {
        case .conditional: return 0
        case .binary(let symbol, _, _):
            let levels: [[String]] = [
                ["||"], ["&&"], ["==", "===", "!=", "!=="], ["<", "<=", ">", ">="], ["+", "-"], ["*", "/", "%"],
            ]
            return (levels.firstIndex { $0.contains(symbol) } ?? 0) + 1
        case .unary: return Self.unaryPrecedence
        default: return 8
        }
    }

    /// The target of `.`, `[]` or a call: a number literal is wrapped too (`1.length` would read as a number).
    private static func postfixTarget(_ target: RuleExpression) -> String {
        if case .number = target { return "(\(Self.minimal(target)))" }
        return Self.wrap(target, when: Self.precedence(target) < 8)
    }

    private static func wrap(_ expression: RuleExpression, when needed: Bool) -> String {
        needed ? "(\(Self.minimal(expression)))" : Self.minimal(expression)
    }

    private static func literal(_ expression: RuleExpression) -> String {
        switch expression {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .number(let value): "\(Int(value))"
        case .string(let value): "'\(value.replacingOccurrences(of: "'", with: "\\'"))'"
        case .regex(let regex): regex.description
        case .variable(let name): name
        case .array(let elements): "[" + elements.map(Self.literal).joined(separator: ", ") + "]"
        default: Self.parenthesised(expression)
        }
    }
}
