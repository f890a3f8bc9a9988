public import HearthCore

extension ShardRouter {
    /// `root` (a whole namespace, the union of every shard's part) with the parts of the shards in `parts` replaced
    /// by the given trees: their subtrees at the shard depth, and their copies of the spine's leaves and priorities,
    /// which take precedence over the copies the other shards' parts gave (at a consistent cut they are the same).
    /// Appends to `changes` what a listener needs to see: a `set` for every subtree at the shard depth and every
    /// spine leaf that changed, a `setPriority` for every spine priority that did.
    /// - Complexity: one pass over the spine levels of `root` and of the parts; subtrees below are shared, not
    ///   copied.
    func replacingParts(
        in root: Node, with parts: [Int: Node], namespace: String, changes: inout [ResolvedMutation]
    ) -> Node {
        self.replace(root, with: parts, at: .root, namespace: namespace, changes: &changes)
    }

    private func replace(
        _ node: Node, with parts: [Int: Node], at path: Path, namespace: String, changes: inout [ResolvedMutation]
    ) -> Node {
        let present = parts.values.filter { !$0.isEmpty }
        if let leaf = present.first(where: \.isLeaf) {
            if node != leaf { changes.append(.set(path, leaf)) }
            return leaf
        }
        if node.isLeaf, present.isEmpty { return node }
        // The restored shards hold children here (or hold nothing here, which removes their subtrees).
        let base = node.isLeaf ? Node.empty : node
        var keys = Set(base.children.lazy.map(\.key))
        for part in present { keys.formUnion(part.children.lazy.map(\.key)) }
        var children: [(key: Key, node: Node)] = []
        children.reserveCapacity(keys.count)
        for key in keys.sorted() {
            let childPath = path.appending(key)
            let old = base.child(key)
            let new: Node
            if childPath.count >= self.shardDepth {
                if let owner = self.shard(namespace: namespace, path: childPath), let part = parts[owner] {
                    new = part.child(key)
                    if new != old { changes.append(.set(childPath, new)) }
                } else {
                    new = old
                }
            } else {
                new = self.replace(
                    old, with: parts.mapValues { $0.child(key) }, at: childPath, namespace: namespace,
                    changes: &changes)
            }
            if !new.isEmpty { children.append((key, new)) }
        }
        let priority = present.isEmpty ? base.priority : present[0].priority
        let replaced = Node(children: ChildMap(sortedUniqueElements: children), priority: priority)
        if !replaced.isEmpty, priority != node.priority {
            changes.append(.setPriority(path, priority))
        }
        return replaced
    }
}
