import HearthCore
import HearthTestKit
import Testing

@testable import HearthRules

/// Properties of rule expressions over random ones: the text of any expression reads back as the same tree (fully
/// parenthesised, and with only the parentheses precedence needs), and evaluation keeps the laws Firebase's
/// rules rely on — `&&` and `||` commute and short-circuit, De Morgan, symmetric equality, ordered comparisons,
/// string methods that agree with each other, snapshot methods that agree with each other, and an error that grants
/// nothing.
@Suite struct RuleEvaluatorPropertyTests {
    private static func context() throws -> RuleContext {
        let before = try WriteValue(
            json: try JSONReader.parseValue(#"{"a": {"b": 1, "c": "x"}, "admins": {"u1": true}, "n": 5}"#), depth: 0
        ).node
        return RuleContext(
            auth: .object(["uid": .string("u1"), "token": .object(["admin": .bool(true)])]), before: before,
            after: before.setting(Node(.int(2)), at: try Path(validating: "/a/b")), path: try Path(validating: "/a"),
            now: 1_700_000_000_000, wildcards: ["$x": "b"])
    }

    private static func value(_ expression: RuleExpression, _ evaluator: RuleEvaluator) -> RuleValue? {
        try? evaluator.evaluate(expression)
    }

    @Test(arguments: [11, 12, 13] as [UInt64])
    func everyExpressionsTextReadsBackAsTheSameTree(seed: UInt64) throws {
        var generator = RuleExpressionGenerator(seed: seed)
        for _ in 0..<2_000 {
            let expression = generator.expression(depth: 4)
            let full = RuleExpressionGenerator.parenthesised(expression)
            let minimal = RuleExpressionGenerator.minimal(expression)
            #expect(try RuleParser.parse(full) == expression, "\(full)")
            #expect(try RuleParser.parse(minimal) == expression, "\(minimal)")
        }
    }

    @Test(arguments: [21, 22] as [UInt64])
    func logicKeepsItsLaws(seed: UInt64) throws {
        let evaluator = RuleEvaluator(context: try Self.context())
        var generator = RuleExpressionGenerator(seed: seed)
        var booleans = 0
        for _ in 0..<3_000 {
            let a =
                Bool.random(using: &generator.random) ? generator.condition(depth: 3) : generator.expression(depth: 3)
            let b = generator.condition(depth: 3)
            #expect(evaluator.grants(a) == (Self.value(a, evaluator) == .bool(true)), "an error grants nothing: \(a)")
            #expect(Self.value(.binary("&&", .bool(false), a), evaluator) == .bool(false), "short-circuit: \(a)")
            #expect(Self.value(.binary("||", .bool(true), a), evaluator) == .bool(true), "short-circuit: \(a)")
            let equal = Self.value(.binary("==", a, b), evaluator)
            #expect(equal == Self.value(.binary("==", b, a), evaluator), "symmetric: \(a), \(b)")
            if case .bool(let isEqual)? = equal {
                #expect(Self.value(.binary("!=", a, b), evaluator) == .bool(!isEqual))
            }
            guard case .bool(let x)? = Self.value(a, evaluator), case .bool(let y)? = Self.value(b, evaluator) else {
                continue
            }
            booleans += 1
            #expect(Self.value(.binary("&&", a, b), evaluator) == .bool(x && y))
            #expect(Self.value(.binary("||", b, a), evaluator) == .bool(x || y))
            #expect(
                Self.value(.unary("!", .binary("&&", a, b)), evaluator)
                    == Self.value(.binary("||", .unary("!", a), .unary("!", b)), evaluator), "De Morgan")
            #expect(
                Self.value(.conditional(a, .string("then"), .string("else")), evaluator)
                    == .string(x ? "then" : "else"))
        }
        #expect(booleans > 100, "enough pairs of booleans to test the laws on")
    }

    @Test(arguments: [31, 32] as [UInt64])
    func comparisonsAndArithmeticAgree(seed: UInt64) throws {
        let evaluator = RuleEvaluator(context: try Self.context())
        var random = SeededRandom(seed: seed)
        for _ in 0..<2_000 {
            let x = Double(Int.random(in: -50...50, using: &random))
            let y = Double(Int.random(in: -50...50, using: &random))
            let (a, b) = (Self.number(x), Self.number(y))
            #expect(Self.value(.binary("<", a, b), evaluator) == .bool(x < y))
            #expect(Self.value(.binary(">", b, a), evaluator) == .bool(x < y), "a < b exactly when b > a")
            #expect(
                Self.value(.binary("<=", a, b), evaluator)
                    == Self.value(.binary("||", .binary("<", a, b), .binary("==", a, b)), evaluator))
            #expect(Self.value(.binary("-", .binary("+", a, b), b), evaluator) == .number(x))
            #expect(Self.value(.binary("*", a, .number(1)), evaluator) == .number(x))
            #expect(Self.value(.binary("<", a, .string("1")), evaluator) == nil, "no coercion: comparing types fails")
        }
    }

    @Test(arguments: [41, 42] as [UInt64])
    func stringMethodsAgreeWithEachOther(seed: UInt64) throws {
        let evaluator = RuleEvaluator(context: try Self.context())
        var random = SeededRandom(seed: seed)
        let letters = Array("abAB/ .'é")
        func word() -> String {
            String(
                (0..<Int.random(in: 0...5, using: &random)).map { _ in letters.randomElement(using: &random) ?? "a" })
        }
        for _ in 0..<2_000 {
            let (s, t) = (word(), word())
            let joined = RuleExpression.binary("+", .string(s), .string(t))
            #expect(Self.value(.member(joined, "length"), evaluator) == .number(Double(s.count + t.count)))
            #expect(Self.value(.call(joined, "beginsWith", [.string(s)]), evaluator) == .bool(true))
            #expect(Self.value(.call(joined, "endsWith", [.string(t)]), evaluator) == .bool(true))
            #expect(Self.value(.call(joined, "contains", [.string(t)]), evaluator) == .bool(true))
            #expect(
                Self.value(.call(.call(.string(s), "toUpperCase", []), "toLowerCase", []), evaluator)
                    == Self.value(.call(.string(s), "toLowerCase", []), evaluator))
            if !s.isEmpty {
                #expect(Self.value(.call(.string(s), "replace", [.string(s), .string(t)]), evaluator) == .string(t))
            }
        }
    }

    @Test func snapshotMethodsAgreeWithEachOther() throws {
        let evaluator = RuleEvaluator(context: try Self.context())
        for snapshot in ["data", "newData", "root"] {
            for key in ["a", "b", "c", "n", "zz", "a/b", "a/zz"] {
                let target = RuleExpression.variable(snapshot)
                #expect(
                    Self.value(.call(.call(target, "child", [.string(key)]), "exists", []), evaluator)
                        == Self.value(.call(target, "hasChild", [.string(key)]), evaluator), "\(snapshot) \(key)")
                let parentOfChild = RuleExpression.call(.call(target, "child", [.string(key)]), "parent", [])
                #expect(
                    Self.value(.call(parentOfChild, "hasChildren", []), evaluator)
                        == Self.value(.call(target, "hasChildren", []), evaluator) || key.contains("/"))
            }
            let nested = RuleExpression.call(
                .call(.variable(snapshot), "child", [.string("a")]), "child", [.string("b")])
            #expect(
                Self.value(.call(nested, "val", []), evaluator)
                    == Self.value(.call(.call(.variable(snapshot), "child", [.string("a/b")]), "val", []), evaluator))
        }
    }

    /// A number as an expression (a negative one is `-` applied to its magnitude, as the parser reads it).
    private static func number(_ value: Double) -> RuleExpression {
        value < 0 ? .unary("-", .number(-value)) : .number(value)
    }
}
