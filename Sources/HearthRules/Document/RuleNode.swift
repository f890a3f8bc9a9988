public import HearthCore

/// The rules at one level of the tree: its `.read`, `.write`, `.validate` and `.indexOn`, the rules of named
/// children, and at most one `$wildcard` child that matches any other key (kept among the children under its
/// `$name`, which no data key can be).
public struct RuleNode: Sendable, Equatable {
    public var read: RuleExpression?
    public var write: RuleExpression?
    public var validate: RuleExpression?
    public var indexOn: [String] = []
    public var children: [JSONKey: RuleNode] = [:]
    /// The `$name` of the wildcard child, if there is one.
    public var wildcard: String?

    public init() {}

    /// The rules for the child `key`, and the wildcard it binds, if any.
    func child(_ key: String) -> (node: RuleNode, binding: (name: String, key: String)?)? {
        if let node = self.children[JSONKey(key)] { return (node, nil) }
        if let wildcard = self.wildcard, let node = self.children[JSONKey(wildcard)] { return (node, (wildcard, key)) }
        return nil
    }
}
