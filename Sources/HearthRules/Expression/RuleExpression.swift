/// A parsed rule expression (`auth != null && newData.child('uid').val() == auth.uid`): the tree `RuleEvaluator`
/// walks. Built by `RuleParser`.
public indirect enum RuleExpression: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    /// `/pattern/flags`, the argument of `matches`, compiled when the expression is read.
    case regex(RuleRegex)
    /// `['a', 'b']`, the argument of `hasChildren`.
    case array([RuleExpression])
    /// `auth`, `root`, `data`, `newData`, `now`, `query` or a `$wildcard`.
    case variable(String)
    /// `target.name`: a property (`auth.uid`, `'x'.length`).
    case member(RuleExpression, String)
    /// `target[key]`.
    case index(RuleExpression, RuleExpression)
    /// `target.method(arguments)`.
    case call(RuleExpression, String, [RuleExpression])
    /// `!x` or `-x`.
    case unary(String, RuleExpression)
    /// `a op b`.
    case binary(String, RuleExpression, RuleExpression)
    /// `condition ? then : otherwise`.
    case conditional(RuleExpression, RuleExpression, RuleExpression)
}
