extension RuleExpression {
    /// Whether the expression reads the variable `name` anywhere (`newData`, `auth`, …).
    func mentions(_ name: String) -> Bool {
        switch self {
        case .null, .bool, .number, .string, .regex: false
        case .variable(let variable): variable == name
        case .array(let elements): elements.contains { $0.mentions(name) }
        case .member(let target, _), .unary(_, let target): target.mentions(name)
        case .index(let target, let key): target.mentions(name) || key.mentions(name)
        case .call(let target, _, let arguments): target.mentions(name) || arguments.contains { $0.mentions(name) }
        case .binary(_, let left, let right): left.mentions(name) || right.mentions(name)
        case .conditional(let condition, let then, let otherwise):
            condition.mentions(name) || then.mentions(name) || otherwise.mentions(name)
        }
    }
}

extension RuleNode {
    /// Whether checking a write against these rules can read the data as the write would leave it: some
    /// `.validate` exists (it checks `newData`), or a `.write` mentions `newData`, here or below.
    var writesReadNewData: Bool {
        if self.validate != nil || (self.write?.mentions("newData") ?? false) { return true }
        return self.children.values.contains { $0.writesReadNewData }
    }

    /// Whether checking a write against these rules can read the stored data at all: `newData` (built from it), or
    /// a `.write` that mentions `data` or `root`, here or below.
    var writesReadData: Bool {
        if self.writesReadNewData { return true }
        return self.writesMention(["data", "root"])
    }

    private func writesMention(_ names: [String]) -> Bool {
        if let write = self.write, names.contains(where: { write.mentions($0) }) { return true }
        return self.children.values.contains { $0.writesMention(names) }
    }
}
