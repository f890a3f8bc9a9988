public import HearthCore

/// Firebase's cascade: a `.read` or `.write` that grants at a location grants everything below it and cannot be
/// taken back deeper; `.validate` does not cascade, and every one on the way to the written location and in the
/// new data below it must pass (where the new data is not null).
extension RulesDocument {
    /// Whether `auth` may read `path` (with `query`, for query-based rules) when the database holds `data`.
    public func allowsRead(at path: Path, auth: RuleValue, data: Node, now: Double, query: RuleValue = .null) -> Bool {
        var context = RuleContext(auth: auth, before: data, now: now, query: query)
        var reads = RuleReads()
        return self.grants(\.read, along: path, context: &context, reads: &reads)
    }

    /// Whether `auth` may make a write at `path` that turns `before` into `after` (the whole database, before and
    /// after).
    public func allowsWrite(at path: Path, auth: RuleValue, before: Node, after: Node, now: Double) -> Bool {
        self.checkWrite(at: [path], auth: auth, before: before, after: after, now: now).isAllowed
    }

    /// Whether `auth` may make a write at every one of `paths` (a multi-path update is allowed only when each of its
    /// paths is) that turns `before` into `after`, and which data the answer depends on.
    public func checkWrite(at paths: [Path], auth: RuleValue, before: Node, after: Node, now: Double) -> RuleVerdict {
        var reads = RuleReads()
        for path in paths {
            var context = RuleContext(auth: auth, before: before, after: after, now: now)
            guard self.grants(\.write, along: path, context: &context, reads: &reads),
                self.validates(along: path, context: context, reads: &reads)
            else { return RuleVerdict(isAllowed: false, reads: reads) }
        }
        return RuleVerdict(isAllowed: true, reads: reads)
    }

    /// Walks from the root towards `path`, binding wildcards, until a rule picked by `rule` grants.
    private func grants(
        _ rule: KeyPath<RuleNode, RuleExpression?>, along path: Path, context: inout RuleContext,
        reads: inout RuleReads
    ) -> Bool {
        var node = self.root
        context.path = .root
        context.nodes = (context.before, context.after)
        for depth in 0...path.count {
            if let expression = node[keyPath: rule], RuleEvaluator(context: context).grants(expression, reads: &reads) {
                return true
            }
            guard depth < path.count, let next = node.child(path.keys[depth].string) else { return false }
            if let binding = next.binding { context.wildcards[binding.name] = binding.key }
            context.descend(to: path.keys[depth])
            node = next.node
        }
        return false
    }

    /// Every `.validate` from the root to `path`, and below `path` in the new data, passes.
    private func validates(along path: Path, context: RuleContext, reads: inout RuleReads) -> Bool {
        var context = context
        var node = self.root
        context.path = .root
        context.nodes = (context.before, context.after)
        for depth in 0..<path.count {
            guard self.passes(node, context, reads: &reads) else { return false }
            guard let next = node.child(path.keys[depth].string) else { return true }
            if let binding = next.binding { context.wildcards[binding.name] = binding.key }
            context.descend(to: path.keys[depth])
            node = next.node
        }
        return self.validatesBelow(node, context: context, reads: &reads)
    }

    /// The node's own `.validate` and those of every child of the new data it has rules for.
    private func validatesBelow(_ node: RuleNode, context: RuleContext, reads: inout RuleReads) -> Bool {
        guard self.passes(node, context, reads: &reads) else { return false }
        guard !node.children.isEmpty else { return true }
        let newData = context.newData
        reads.record(newData)
        for (key, _) in newData.node.children {
            guard let next = node.child(key.string) else { continue }
            var child = context
            child.descend(to: key)
            if let binding = next.binding { child.wildcards[binding.name] = binding.key }
            guard self.validatesBelow(next.node, context: child, reads: &reads) else { return false }
        }
        return true
    }

    /// The node's `.validate` passes, or it has none, or the new data there is null.
    private func passes(_ node: RuleNode, _ context: RuleContext, reads: inout RuleReads) -> Bool {
        guard let validate = node.validate else { return true }
        let newData = context.newData
        reads.record(newData, kindOnly: true)
        guard !newData.node.isEmpty else { return true }
        return RuleEvaluator(context: context).grants(validate, reads: &reads)
    }
}

/// What a rules check answered, and the data the answer was drawn from: a write decided on this data must not be
/// applied once any of it has changed.
public struct RuleVerdict: Sendable, Equatable {
    public var isAllowed: Bool
    public var reads: RuleReads

    public init(isAllowed: Bool, reads: RuleReads) {
        self.isAllowed = isAllowed
        self.reads = reads
    }
}
