public import HearthCore

/// Firebase's cascade: a `.read` or `.write` that grants at a location grants everything below it and cannot be
/// taken back deeper; `.validate` does not cascade, and every one on the way to the written location and in the
/// new data below it must pass (where the new data is not null).
extension RulesDocument {
    /// Whether `auth` may read `path` (with `query`, for query-based rules) when the database holds `data`.
    public func allowsRead(at path: Path, auth: RuleValue, data: Node, now: Double, query: RuleValue = .null) -> Bool {
        var context = RuleContext(auth: auth, before: data, now: now, query: query)
        return self.grants(\.read, along: path, context: &context)
    }

    /// Whether `auth` may make a write at `path` that turns `before` into `after` (the whole database, before and
    /// after).
    public func allowsWrite(at path: Path, auth: RuleValue, before: Node, after: Node, now: Double) -> Bool {
        var context = RuleContext(auth: auth, before: before, after: after, now: now)
        guard self.grants(\.write, along: path, context: &context) else { return false }
        return self.validates(along: path, context: context)
    }

    /// Walks from the root towards `path`, binding wildcards, until a rule picked by `rule` grants.
    private func grants(_ rule: KeyPath<RuleNode, RuleExpression?>, along path: Path, context: inout RuleContext)
        -> Bool
    {
        var node = self.root
        for depth in 0...path.count {
            context.path = Path(keys: Array(path.keys.prefix(depth)))
            if let expression = node[keyPath: rule], RuleEvaluator(context: context).grants(expression) {
                return true
            }
            guard depth < path.count, let next = node.child(path.keys[depth].string) else { return false }
            if let binding = next.binding { context.wildcards[binding.name] = binding.key }
            node = next.node
        }
        return false
    }

    /// Every `.validate` from the root to `path`, and below `path` in the new data, passes.
    private func validates(along path: Path, context: RuleContext) -> Bool {
        var context = context
        var node = self.root
        for depth in 0..<path.count {
            context.path = Path(keys: Array(path.keys.prefix(depth)))
            guard self.passes(node, context) else { return false }
            guard let next = node.child(path.keys[depth].string) else { return true }
            if let binding = next.binding { context.wildcards[binding.name] = binding.key }
            node = next.node
        }
        context.path = path
        return self.validatesBelow(node, context: context)
    }

    /// The node's own `.validate` and those of every child of the new data it has rules for.
    private func validatesBelow(_ node: RuleNode, context: RuleContext) -> Bool {
        guard self.passes(node, context) else { return false }
        let data = context.after.node(at: context.path)
        for (key, _) in data.children {
            guard let next = node.child(key.string) else { continue }
            var child = context
            child.path = context.path.appending(key)
            if let binding = next.binding { child.wildcards[binding.name] = binding.key }
            guard self.validatesBelow(next.node, context: child) else { return false }
        }
        return true
    }

    /// The node's `.validate` passes, or it has none, or the new data there is null.
    private func passes(_ node: RuleNode, _ context: RuleContext) -> Bool {
        guard let validate = node.validate, !context.after.node(at: context.path).isEmpty else { return true }
        return RuleEvaluator(context: context).grants(validate)
    }
}
