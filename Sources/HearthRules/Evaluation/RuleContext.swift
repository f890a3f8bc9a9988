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
    /// The nodes at `path` before and after, when the walk that made this context already found them.
    var nodes: (before: Node, after: Node)?

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

    /// `data`: the location before the request.
    var data: RuleSnapshot {
        guard let nodes else { return RuleSnapshot(root: self.before, path: self.path) }
        return RuleSnapshot(root: self.before, path: self.path, isNewData: false, node: nodes.before)
    }

    /// `newData`: the location as the write would leave it.
    var newData: RuleSnapshot {
        guard let nodes else { return RuleSnapshot(root: self.after, path: self.path, isNewData: true) }
        return RuleSnapshot(root: self.after, path: self.path, isNewData: true, node: nodes.after)
    }

    /// Moves the context one level down to `key`, finding the nodes there from the ones here.
    mutating func descend(to key: Key) {
        let here = self.nodes ?? (self.before.node(at: self.path), self.after.node(at: self.path))
        self.path = self.path.appending(key)
        self.nodes = (here.before.child(key), here.after.child(key))
    }

    /// The value of the variable `name`, or nil when there is none.
    func variable(_ name: String) -> RuleValue? {
        switch name {
        case "auth": return self.auth
        case "root": return .snapshot(RuleSnapshot(root: self.before, path: .root))
        case "data": return .snapshot(self.data)
        case "newData": return .snapshot(self.newData)
        case "now": return .number(self.now)
        case "query": return self.query
        default: return self.wildcards[name].map(RuleValue.string)
        }
    }
}
