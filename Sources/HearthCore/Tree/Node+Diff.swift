/// The smallest set of writes that turns one tree into another, for pushing a change to a client that holds the old
/// tree as a merge instead of the whole new value.
extension Node {
    /// The writes that turn `old` into this node, each a path relative to both and the node to set there (`.empty`
    /// removes): disjoint paths, in key order, with no write at the root. `nil` when that cannot be said in at most
    /// `limit` writes or needs a write at the root: either node is a leaf or empty, or their priorities differ (the
    /// caller then sends the whole value). Equal nodes give no writes.
    ///
    /// A client that stored a transaction's whole post gets back its two changed leaves (`starCount`, one star)
    /// rather than the post with every user's star; 64 such clients on one post each parsed some 20 KB per commit.
    /// - Complexity: O(n) in the nodes of both trees, less the subtrees they share (which end the descent at once),
    ///   with a stop after `limit` writes.
    public func changes(from old: Node, limit: Int) -> [(path: Path, node: Node)]? {
        var changes: [(path: Path, node: Node)] = []
        guard Self.diff(old, self, at: [], limit: limit, into: &changes) else { return nil }
        return changes
    }

    /// The number of nodes in this tree (itself, every map and every leaf), counting no further than `cap`: the size
    /// of the whole value, for weighing it against a list of changes. O(min(n, cap)).
    public func nodeCount(upTo cap: Int) -> Int {
        var count = 0
        self.countNodes(&count, cap: cap)
        return count
    }

    private func countNodes(_ count: inout Int, cap: Int) {
        guard !self.isEmpty, count < cap else { return }
        count += 1
        for child in self.children {
            child.node.countNodes(&count, cap: cap)
            if count >= cap { return }
        }
    }

    /// Appends the writes from `old` to `new` below `keys`; false when `new` must replace `old` whole (at the root,
    /// that is the caller's answer) or `limit` was passed.
    private static func diff(
        _ old: Node, _ new: Node, at keys: [Key], limit: Int, into changes: inout [(path: Path, node: Node)]
    ) -> Bool {
        if old.isIdentical(to: new) { return true }
        guard !old.isLeaf, !new.isLeaf, !old.isEmpty, !new.isEmpty, old.priority == new.priority else {
            return old == new || Self.write(new, at: keys, limit: limit, into: &changes)
        }
        var oldChildren = old.children.makeIterator()
        var newChildren = new.children.makeIterator()
        var before = oldChildren.next()
        var after = newChildren.next()
        while before != nil || after != nil {
            if let removed = before, after.map({ removed.key < $0.key }) ?? true {
                guard Self.write(.empty, at: keys + [removed.key], limit: limit, into: &changes) else { return false }
                before = oldChildren.next()
            } else if let added = after, before.map({ added.key < $0.key }) ?? true {
                guard Self.write(added.node, at: keys + [added.key], limit: limit, into: &changes) else { return false }
                after = newChildren.next()
            } else if let was = before, let now = after {
                // Descending finds equal children equal; comparing them first would walk a changed one twice.
                guard Self.diff(was.node, now.node, at: keys + [now.key], limit: limit, into: &changes) else {
                    return false
                }
                before = oldChildren.next()
                after = newChildren.next()
            }
        }
        return true
    }

    /// Records a write of `node` at `keys`; false at the root or past `limit`.
    private static func write(
        _ node: Node, at keys: [Key], limit: Int, into changes: inout [(path: Path, node: Node)]
    ) -> Bool {
        guard !keys.isEmpty, changes.count < limit else { return false }
        changes.append((Path(keys: keys), node))
        return true
    }
}
