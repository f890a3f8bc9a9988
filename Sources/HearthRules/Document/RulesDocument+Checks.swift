public import HearthCore

/// Firebase's cascade: a `.read` or `.write` that grants at a location grants everything below it and cannot be
/// taken back deeper; `.validate` does not cascade, and every one on the way to the written location and in the
/// new data below it must pass (where the new data is not null).
extension RulesDocument {
    /// Whether `auth` may read `path` (with `query`, for query-based rules) when the database holds `data`.
    public func allowsRead(at path: Path, auth: RuleValue, data: Node, now: Double, query: RuleValue = .null) -> Bool {
        self.checkRead(at: path, auth: auth, data: data, now: now, query: query).isAllowed
    }

    /// Whether `auth` may read `path`, and whether the rules were refused as too costly (`RuleBudget`).
    public func checkRead(at path: Path, auth: RuleValue, data: Node, now: Double, query: RuleValue = .null)
        -> RuleVerdict
    {
        var walk = Walk(
            context: RuleContext(auth: auth, before: data, now: now, query: query),
            budget: RuleBudget(limit: self.evaluationLimit))
        let isAllowed = walk.grants(\.read, along: path, in: self)
        return RuleVerdict(
            isAllowed: isAllowed, reads: walk.reads, isTooCostly: walk.budget.isExhausted, decider: walk.decider)
    }

    /// Whether `auth` may make a write at `path` that turns `before` into `after` (the whole database, before and
    /// after).
    public func allowsWrite(at path: Path, auth: RuleValue, before: Node, after: Node, now: Double) -> Bool {
        self.checkWrite(at: [path], auth: auth, before: before, after: after, now: now).isAllowed
    }

    /// Whether the rules grant a write at `count` paths without a walk (`grantedWithoutWalk(writes:)`), for a caller
    /// that needs only the answer: an allowed verdict of no reads is made of shared empty sets, whose every retain
    /// and release takes the runtime's slow way.
    public func grantsWithoutWalk(writes count: Int) -> Bool {
        self.grantsEveryWrite && count <= self.evaluationLimit
    }

    /// `checkWrite`'s verdict for a write at `count` paths when the rules grant every write without a walk (the
    /// root's `true` grants each path for one step of the budget, and nothing validates or reads); nil when they
    /// must be walked. A caller that has not yet gathered the paths asks this first and gathers them only for a walk.
    public func grantedWithoutWalk(writes count: Int) -> RuleVerdict? {
        guard self.grantsWithoutWalk(writes: count) else { return nil }
        return RuleVerdict(
            isAllowed: true, reads: RuleReads(), decider: count == 0 ? nil : RuleDecider(kind: .write, path: .root))
    }

    /// Whether `auth` may make a write at every one of `paths` (a multi-path update is allowed only when each of its
    /// paths is) that turns `before` into `after`, and which data the answer depends on. All the paths share one
    /// `RuleBudget`: a write the rules cannot decide within it is refused.
    public func checkWrite(at paths: [Path], auth: RuleValue, before: Node, after: Node, now: Double) -> RuleVerdict {
        if let verdict = self.grantedWithoutWalk(writes: paths.count) { return verdict }
        var walk = Walk(
            context: RuleContext(auth: auth, before: before, after: after, now: now),
            budget: RuleBudget(limit: self.evaluationLimit))
        for path in paths {
            walk.context = RuleContext(auth: auth, before: before, after: after, now: now)
            guard walk.grants(\.write, along: path, in: self), walk.validates(along: path, in: self) else {
                return RuleVerdict(
                    isAllowed: false, reads: walk.reads, isTooCostly: walk.budget.isExhausted, decider: walk.decider)
            }
        }
        return RuleVerdict(isAllowed: true, reads: walk.reads, decider: walk.decider)
    }
}

/// One request's walk through the rules: the context at the current location, the data read so far and the budget
/// left.
private struct Walk {
    var context: RuleContext
    var reads = RuleReads()
    var budget: RuleBudget
    /// The rule that decided: the last `.read`/`.write` that granted, or the `.validate` that failed.
    var decider: RuleDecider?

    init(context: RuleContext, budget: RuleBudget) {
        self.context = context
        self.budget = budget
    }

    /// Walks from the root towards `path`, binding wildcards, until a rule picked by `rule` grants.
    mutating func grants(_ rule: KeyPath<RuleNode, RuleExpression?>, along path: Path, in document: RulesDocument)
        -> Bool
    {
        var node = document.root
        self.context.path = .root
        self.context.nodes = (self.context.before, self.context.after)
        for depth in 0...path.count {
            if let expression = node[keyPath: rule], self.evaluates(expression, in: self.context) {
                self.decider = RuleDecider(kind: rule == \RuleNode.read ? .read : .write, path: self.context.path)
                return true
            }
            guard !self.budget.isExhausted, depth < path.count, let next = node.child(path.keys[depth].string) else {
                return false
            }
            if let binding = next.binding { self.context.wildcards[binding.name] = binding.key }
            self.context.descend(to: path.keys[depth])
            node = next.node
        }
        return false
    }

    /// Every `.validate` from the root to `path`, and below `path` in the new data, passes.
    mutating func validates(along path: Path, in document: RulesDocument) -> Bool {
        var context = self.context
        var node = document.root
        context.path = .root
        context.nodes = (context.before, context.after)
        for depth in 0..<path.count {
            guard self.passes(node, context) else { return false }
            guard let next = node.child(path.keys[depth].string) else { return true }
            if let binding = next.binding { context.wildcards[binding.name] = binding.key }
            context.descend(to: path.keys[depth])
            node = next.node
        }
        return self.validatesBelow(node, context: context)
    }

    /// The node's own `.validate` and those of every child of the new data it has rules for (a step of the budget
    /// per child looked at).
    private mutating func validatesBelow(_ node: RuleNode, context: RuleContext) -> Bool {
        guard self.passes(node, context) else { return false }
        guard !node.children.isEmpty else { return true }
        let newData = context.newData
        self.reads.record(newData)
        for (key, _) in newData.node.children {
            guard (try? self.budget.spend(1)) != nil else { return false }
            guard let next = node.child(key.string) else { continue }
            var child = context
            child.descend(to: key)
            if let binding = next.binding { child.wildcards[binding.name] = binding.key }
            guard self.validatesBelow(next.node, context: child) else { return false }
        }
        return true
    }

    /// The node's `.validate` passes, or it has none, or the new data there is null.
    private mutating func passes(_ node: RuleNode, _ context: RuleContext) -> Bool {
        guard let validate = node.validate else { return true }
        let newData = context.newData
        self.reads.record(newData, kindOnly: true)
        guard !newData.node.isEmpty else { return true }
        guard self.evaluates(validate, in: context) else {
            self.decider = RuleDecider(kind: .validate, path: context.path)
            return false
        }
        return true
    }

    /// Whether `expression` grants in `context`, within the budget left.
    private mutating func evaluates(_ expression: RuleExpression, in context: RuleContext) -> Bool {
        RuleEvaluator(context: context).grants(expression, reads: &self.reads, budget: &self.budget)
    }
}

/// What a rules check answered, and the data the answer was drawn from: a write decided on this data must not be
/// applied once any of it has changed.
public struct RuleVerdict: Sendable, Equatable {
    public var isAllowed: Bool
    public var reads: RuleReads
    /// Whether the request was refused because its rules ran out of `RuleBudget`, so the server can say so.
    public var isTooCostly: Bool
    /// The rule that decided (see `RuleDecider`); nil when no rule granted, or the budget ran out.
    public var decider: RuleDecider?

    public init(isAllowed: Bool, reads: RuleReads, isTooCostly: Bool = false, decider: RuleDecider? = nil) {
        self.isAllowed = isAllowed
        self.reads = reads
        self.isTooCostly = isTooCostly
        self.decider = decider
    }
}
