import HearthCore

/// The methods rules may call: a snapshot's (`val`, `child`, `parent`, `hasChild`, `hasChildren`, `exists`,
/// `getPriority`, `isNumber`, `isString`, `isBoolean`) and a string's (`contains`, `beginsWith`, `endsWith`,
/// `replace`, `toLowerCase`, `toUpperCase`, `matches`). Each spends from the request's budget what it reads or
/// builds: a node per data node `val()` copies, a step per byte a string method reads or writes.
enum RuleMethods {
    static func call(
        _ name: String, on target: RuleValue, _ arguments: [RuleValue], reads: inout RuleReads,
        budget: inout RuleBudget
    ) throws(RuleEvaluationError) -> RuleValue {
        switch target {
        case .snapshot(let snapshot):
            return try Self.snapshot(name, snapshot, arguments, reads: &reads, budget: &budget)
        case .string(let text): return try Self.string(name, text, arguments, budget: &budget)
        default: throw RuleEvaluationError("A \(target.typeName) has no method '\(name)'.")
        }
    }

    private static func snapshot(
        _ name: String, _ snapshot: RuleSnapshot, _ arguments: [RuleValue], reads: inout RuleReads,
        budget: inout RuleBudget
    ) throws(RuleEvaluationError) -> RuleValue {
        let node = snapshot.node
        switch name {
        case "val":
            try Self.expect(arguments, count: 0, name)
            reads.record(snapshot)
            return try Self.value(of: node, budget: &budget)
        case "exists":
            try Self.expect(arguments, count: 0, name)
            reads.record(snapshot, kindOnly: true)
            return .bool(!node.isEmpty)
        case "getPriority":
            try Self.expect(arguments, count: 0, name)
            reads.record(snapshot)
            return node.priority.map { RuleValue(leaf: $0.leafValue) } ?? .null
        case "isNumber", "isString", "isBoolean":
            try Self.expect(arguments, count: 0, name)
            reads.record(snapshot, kindOnly: true)
            switch (name, node.leafValue) {
            case ("isNumber", .int?), ("isNumber", .double?), ("isString", .string?), ("isBoolean", .bool?):
                return .bool(true)
            default: return .bool(false)
            }
        case "child":
            let path = try Self.path(try Self.strings(arguments, count: 1, name)[0], budget: &budget)
            return .snapshot(snapshot.child(path))
        case "parent":
            try Self.expect(arguments, count: 0, name)
            guard let parent = snapshot.path.parent else { throw RuleEvaluationError("The root has no parent.") }
            return .snapshot(snapshot.moved(to: parent))
        case "hasChild":
            let path = try Self.path(try Self.strings(arguments, count: 1, name)[0], budget: &budget)
            reads.record(snapshot, below: path)
            return .bool(!node.node(at: path).isEmpty)
        case "hasChildren" where arguments.isEmpty:
            reads.record(snapshot, kindOnly: true)
            return .bool(node.childCount > 0)
        case "hasChildren":
            guard arguments.count == 1, case .array(let keys) = arguments[0] else {
                throw RuleEvaluationError("hasChildren takes nothing or an array of child names.")
            }
            for key in keys {
                guard case .string(let text) = key else { throw RuleEvaluationError("hasChildren takes strings.") }
                let path = try Self.path(text, budget: &budget)
                reads.record(snapshot, below: path)
                if node.node(at: path).isEmpty { return .bool(false) }
            }
            return .bool(true)
        default:
            throw RuleEvaluationError("A RuleDataSnapshot has no method '\(name)'.")
        }
    }

    private static func string(_ name: String, _ text: String, _ arguments: [RuleValue], budget: inout RuleBudget)
        throws(RuleEvaluationError) -> RuleValue
    {
        switch name {
        case "contains":
            let part = try Self.strings(arguments, count: 1, name)[0]
            try budget.spend(Self.product(text.utf8.count, max(1, part.utf8.count)))
            return .bool(part.isEmpty || text.contains(part))
        case "beginsWith", "endsWith":
            let part = try Self.strings(arguments, count: 1, name)[0]
            try budget.spend(part.utf8.count)
            return .bool(name == "beginsWith" ? text.hasPrefix(part) : text.hasSuffix(part))
        case "replace":
            let parts = try Self.strings(arguments, count: 2, name)
            guard !parts[0].isEmpty else { return .string(text) }
            try budget.spend(Self.replacementCost(text, parts[0], parts[1]))
            return .string(
                text.split(separator: parts[0], omittingEmptySubsequences: false).joined(separator: parts[1]))
        case "toLowerCase", "toUpperCase":
            try Self.expect(arguments, count: 0, name)
            try budget.spend(text.utf8.count)
            return .string(name == "toLowerCase" ? text.lowercased() : text.uppercased())
        case "matches":
            guard arguments.count == 1, case .regex(let regex) = arguments[0] else {
                throw RuleEvaluationError("matches takes a regular expression literal, as in matches(/^a/).")
            }
            return .bool(try regex.matches(text, budget: &budget))
        default:
            throw RuleEvaluationError("A string has no method '\(name)'.")
        }
    }

    private static func expect(_ arguments: [RuleValue], count: Int, _ name: String) throws(RuleEvaluationError) {
        guard arguments.count == count else {
            throw RuleEvaluationError("\(name) takes \(count) arguments, not \(arguments.count).")
        }
    }

    /// The arguments, which must be `count` strings.
    private static func strings(_ arguments: [RuleValue], count: Int, _ name: String) throws(RuleEvaluationError)
        -> [String]
    {
        try Self.expect(arguments, count: count, name)
        var strings: [String] = []
        for argument in arguments {
            guard case .string(let text) = argument else {
                throw RuleEvaluationError("\(name) takes strings, not a \(argument.typeName).")
            }
            strings.append(text)
        }
        return strings
    }

    /// `val()`: a leaf's value, or an object of the children's values, spending a step per node.
    static func value(of node: Node, budget: inout RuleBudget) throws(RuleEvaluationError) -> RuleValue {
        try budget.spend(1)
        if node.isEmpty { return .null }
        if let leaf = node.leafValue { return RuleValue(leaf: leaf) }
        var members: [JSONKey: RuleValue] = [:]
        for (key, child) in node.children { members[JSONKey(key)] = try Self.value(of: child, budget: &budget) }
        return .object(members)
    }

    /// What `replace` costs: reading the text (a search per byte, each up to the pattern's length) and writing a
    /// result that may be as long as every possible occurrence replaced, so a chain of replacements cannot build a
    /// string beyond the budget before it is charged.
    private static func replacementCost(_ text: String, _ pattern: String, _ replacement: String) -> Int {
        let length = text.utf8.count
        let occurrences = length / pattern.utf8.count
        let grown = Self.product(occurrences, replacement.utf8.count)
        let (total, overflow) = Self.product(length, pattern.utf8.count).addingReportingOverflow(grown)
        return overflow ? Int.max : total
    }

    /// `a × b`, saturating at `Int.max`.
    private static func product(_ a: Int, _ b: Int) -> Int {
        let (result, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? Int.max : result
    }

    private static func path(_ text: String, budget: inout RuleBudget) throws(RuleEvaluationError) -> Path {
        try budget.spend(text.utf8.count)
        do {
            return try Path(validating: text)
        } catch {
            throw RuleEvaluationError("Invalid path '\(text)': \(error.message)")
        }
    }
}
