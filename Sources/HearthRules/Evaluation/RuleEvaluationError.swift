/// Why an expression could not be evaluated (a wrong type, a missing property, an unknown method): as in Firebase,
/// the rule it belongs to then grants nothing.
public struct RuleEvaluationError: Error, Sendable, Hashable, CustomStringConvertible {
    public let message: String

    init(_ message: String) {
        self.message = message
    }

    public var description: String { self.message }
}
