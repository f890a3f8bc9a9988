public import HearthCore

/// The rule that decided a check, for the console's playground: a `.read` or `.write` that granted (the last one,
/// for a write at several paths), or a `.validate` that refused. A refusal because no rule granted has none.
public struct RuleDecider: Sendable, Equatable {
    /// Which of a location's rules decided.
    public enum Kind: String, Sendable {
        case read = ".read", write = ".write", validate = ".validate"
    }

    /// Which rule of the location decided.
    public var kind: Kind
    /// The data location whose rule decided (wildcards still bound to the keys they matched).
    public var path: Path

    /// The `kind` rule at the data location `path`.
    public init(kind: Kind, path: Path) {
        self.kind = kind
        self.path = path
    }
}

extension RulesDocument {
    /// The members of the rules file leading to the rule that decided, as written there: `["rules", "users",
    /// "$uid", ".write"]` for a write to `/users/ada` granted by the wildcard's rule.
    public func ruleKeys(of decider: RuleDecider) -> [String] {
        var keys = ["rules"]
        var node = self.root
        for key in decider.path.keys {
            guard let next = node.child(key.string) else { break }
            keys.append(next.binding?.name ?? key.string)
            node = next.node
        }
        return keys + [decider.kind.rawValue]
    }

    /// The 1-based line and column where the member at `keys` is written in the rules file `text`.
    public static func position(of keys: [String], in text: String) -> (line: Int, column: Int) {
        let bytes = (try? RulesSource.strippingComments(text)) ?? Array(text.utf8)
        return RulesSource.lineAndColumn(of: RulesSource.offset(of: keys, in: bytes), in: bytes)
    }
}
