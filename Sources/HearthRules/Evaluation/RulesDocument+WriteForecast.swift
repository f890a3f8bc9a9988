public import HearthCore

/// What the rules say of a write before its data has arrived.
public enum WriteForecast: Sendable, Equatable {
    /// A `.write` on the way grants, whatever the data (`.validate` may still refuse it).
    case granted
    /// No `.write` on the way can grant, whatever the data: the write is refused.
    case denied
    /// The answer depends on the data (the stored data, the new data, or a rule too costly to decide early).
    case dependsOnData
}

/// Deciding a write from its request head alone: who is asking and where, not what it writes. A REST front end
/// uses it to refuse a write the rules refuse before reading (and holding) its body.
extension RulesDocument {
    /// What `.write` rules say of a write by `auth` at `path` (`below` for writes whose keys come in the body, a
    /// PATCH's or a POST's, which deeper rules may grant), looking only at rules that read neither `data`, `newData`
    /// nor `root` and use no regular expression. Cheap: one walk down `path`, no data read.
    public func forecastWrite(at path: Path, below: Bool, auth: RuleValue, now: Double) -> WriteForecast {
        var context = RuleContext(auth: auth, now: now)
        var node = self.root
        var undecided = false
        for depth in 0...path.count {
            if let expression = node.write {
                if !expression.isDecidableFromHead {
                    undecided = true
                } else if RuleEvaluator(context: context).grants(expression) {
                    return .granted
                }
            }
            guard depth < path.count else { break }
            guard let next = node.child(path.keys[depth].string) else {
                return undecided ? .dependsOnData : .denied
            }
            if let binding = next.binding { context.wildcards[binding.name] = binding.key }
            node = next.node
        }
        if below && node.children.values.contains(where: \.grantsWritesSomewhere) { return .dependsOnData }
        return undecided ? .dependsOnData : .denied
    }
}

extension RuleNode {
    /// Whether this node or one below it has a `.write` at all.
    fileprivate var grantsWritesSomewhere: Bool {
        self.write != nil || self.children.values.contains { $0.grantsWritesSomewhere }
    }
}

extension RuleExpression {
    /// Whether the expression can be evaluated without any data and cheaply: it reads no `data`, `newData` or
    /// `root`, and matches no regular expression.
    fileprivate var isDecidableFromHead: Bool {
        switch self {
        case .regex: false
        case .null, .bool, .number, .string: true
        case .variable(let name): name != "data" && name != "newData" && name != "root"
        case .array(let elements): elements.allSatisfy(\.isDecidableFromHead)
        case .member(let target, _), .unary(_, let target): target.isDecidableFromHead
        case .index(let target, let key): target.isDecidableFromHead && key.isDecidableFromHead
        case .call(let target, _, let arguments):
            target.isDecidableFromHead && arguments.allSatisfy(\.isDecidableFromHead)
        case .binary(_, let left, let right): left.isDecidableFromHead && right.isDecidableFromHead
        case .conditional(let condition, let then, let otherwise):
            condition.isDecidableFromHead && then.isDecidableFromHead && otherwise.isDecidableFromHead
        }
    }
}
