public import HearthCore

/// What a rule can read: `auth`, `root`, `data`, `newData`, `now`, `query` and the `$wildcards` captured on the way
/// to the location being checked.
public struct RuleContext: Sendable {
    public var auth: RuleValue
    /// The data before the request (`root`, and `data` at `path`).
    public var before: Node
    /// The data as it would be after a write (`newData`); the same as `before` for reads.
    public var after: Node
    /// The location whose rule is checked.
    public var path: Path
    /// The server's clock, milliseconds since the Unix epoch.
    public var now: Double
    /// The query of a read (`orderByChild`, `limitToFirst`, …), or `null`.
    public var query: RuleValue
    /// `$name` → the key it matched.
    public var wildcards: [String: String]

    public init(
        auth: RuleValue = .null, before: Node = .empty, after: Node? = nil, path: Path = .root, now: Double = 0,
        query: RuleValue = .null, wildcards: [String: String] = [:]
    ) {
        self.auth = auth
        self.before = before
        self.after = after ?? before
        self.path = path
        self.now = now
        self.query = query
        self.wildcards = wildcards
    }

    /// The value of the variable `name`, or nil when there is none.
    func variable(_ name: String) -> RuleValue? {
        switch name {
        case "auth": return self.auth
        case "root": return .snapshot(RuleSnapshot(root: self.before, path: .root))
        case "data": return .snapshot(RuleSnapshot(root: self.before, path: self.path))
        case "newData": return .snapshot(RuleSnapshot(root: self.after, path: self.path, isNewData: true))
        case "now": return .number(self.now)
        case "query": return self.query
        default: return self.wildcards[name].map(RuleValue.string)
        }
    }
}
