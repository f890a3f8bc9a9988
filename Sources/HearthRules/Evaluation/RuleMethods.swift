import HearthCore

/// The methods rules may call: a snapshot's (`val`, `child`, `parent`, `hasChild`, `hasChildren`, `exists`,
/// `getPriority`, `isNumber`, `isString`, `isBoolean`) and a string's (`contains`, `beginsWith`, `endsWith`,
/// `replace`, `toLowerCase`, `toUpperCase`, `matches`).
enum RuleMethods {
    static func call(_ name: String, on target: RuleValue, _ arguments: [RuleValue], reads: inout RuleReads)
        throws(RuleEvaluationError) -> RuleValue
    {
        switch target {
        case .snapshot(let snapshot): return try Self.snapshot(name, snapshot, arguments, reads: &reads)
        case .string(let text): return try Self.string(name, text, arguments)
        default: throw RuleEvaluationError("A \(target.typeName) has no method '\(name)'.")
        }
    }

    private static func snapshot(
        _ name: String, _ snapshot: RuleSnapshot, _ arguments: [RuleValue], reads: inout RuleReads
    ) throws(RuleEvaluationError) -> RuleValue {
        let node = snapshot.node
        switch name {
        case "val":
            try Self.expect(arguments, count: 0, name)
            reads.record(snapshot)
            return Self.value(of: node)
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
            let path = try Self.path(try Self.strings(arguments, count: 1, name)[0])
            return .snapshot(snapshot.child(path))
        case "parent":
            try Self.expect(arguments, count: 0, name)
            guard let parent = snapshot.path.parent else { throw RuleEvaluationError("The root has no parent.") }
            return .snapshot(snapshot.moved(to: parent))
        case "hasChild":
            let path = try Self.path(try Self.strings(arguments, count: 1, name)[0])
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
                let path = try Self.path(text)
                reads.record(snapshot, below: path)
                if node.node(at: path).isEmpty { return .bool(false) }
            }
            return .bool(true)
        default:
            throw RuleEvaluationError("A RuleDataSnapshot has no method '\(name)'.")
        }
    }

    private static func string(_ name: String, _ text: String, _ arguments: [RuleValue]) throws(RuleEvaluationError)
        -> RuleValue
    {
        switch name {
        case "contains":
            let part = try Self.strings(arguments, count: 1, name)[0]
            return .bool(part.isEmpty || text.contains(part))
        case "beginsWith": return .bool(text.hasPrefix(try Self.strings(arguments, count: 1, name)[0]))
        case "endsWith": return .bool(text.hasSuffix(try Self.strings(arguments, count: 1, name)[0]))
        case "replace":
            let parts = try Self.strings(arguments, count: 2, name)
            guard !parts[0].isEmpty else { return .string(text) }
            return .string(
                text.split(separator: parts[0], omittingEmptySubsequences: false).joined(separator: parts[1]))
        case "toLowerCase":
            try Self.expect(arguments, count: 0, name)
            return .string(text.lowercased())
        case "toUpperCase":
            try Self.expect(arguments, count: 0, name)
            return .string(text.uppercased())
        case "matches":
            guard arguments.count == 1, case .regex(let pattern, let flags) = arguments[0] else {
                throw RuleEvaluationError("matches takes a regular expression literal, as in matches(/^a/).")
            }
            return .bool(try RuleRegex.matches(text, pattern: pattern, flags: flags))
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

    /// `val()`: a leaf's value, or an object of the children's values.
    static func value(of node: Node) -> RuleValue {
        if node.isEmpty { return .null }
        if let leaf = node.leafValue { return RuleValue(leaf: leaf) }
        var members: [String: RuleValue] = [:]
        for (key, child) in node.children { members[key.string] = Self.value(of: child) }
        return .object(members)
    }

    private static func path(_ text: String) throws(RuleEvaluationError) -> Path {
        do {
            return try Path(validating: text)
        } catch {
            throw RuleEvaluationError("Invalid path '\(text)': \(error.message)")
        }
    }
}

/// `matches(/regex/)`: the string contains a match (anchor with `^` and `$` for a whole match); flag `i` ignores
/// case. Swift's `Regex` reads JavaScript's pattern syntax for what rules use.
enum RuleRegex {
    static func matches(_ text: String, pattern: String, flags: String) throws(RuleEvaluationError) -> Bool {
        guard flags.allSatisfy({ $0 == "i" }) else {
            throw RuleEvaluationError("Unsupported regular expression flags '\(flags)'; only 'i' is allowed.")
        }
        do {
            var regex = try Regex(pattern)
            if flags.contains("i") { regex = regex.ignoresCase() }
            return text.contains(regex)
        } catch {
            throw RuleEvaluationError("Invalid regular expression /\(pattern)/.")
        }
    }
}
