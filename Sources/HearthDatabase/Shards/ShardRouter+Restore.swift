import HearthCore

extension ShardRouter {
    /// `root` (a whole namespace, the union of every shard's part) with the parts of the shards in `parts` replaced
    /// by the given trees: their subtrees at the shard depth, and their copies of the spine's leaves and priorities,
    /// which take precedence over the copies the other shards' parts gave (at a consistent cut they are the same).
    /// Appends to `changes` what a listener needs to see: a `set` for every subtree at the shard depth and every
    /// spine leaf that changed, a `setPriority` for every spine priority that did.
    /// - Complexity: one pass over the spine levels of `root` and of the parts (the children at the shard depth are
    ///   merged in order, not sorted); a restored subtree is compared with the one it replaces, other subtrees are
    ///   shared, not copied.
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
        let children: [ChildMap.Element]
        if path.count + 1 >= self.shardDepth {
            children = self.replaceOwnedChildren(
                of: base, with: parts, at: path, namespace: namespace, changes: &changes)
        } else {
            var keys = Set(base.children.lazy.map(\.key))
            for part in present { keys.formUnion(part.children.lazy.map(\.key)) }
            children = keys.sorted().compactMap { key in
                let child = self.replace(
                    base.child(key), with: parts.mapValues { $0.child(key) }, at: path.appending(key),
                    namespace: namespace, changes: &changes)
                return child.isEmpty ? nil : (key, child)
            }
        }
        let priority = present.isEmpty ? base.priority : present[0].priority
        let replaced = Node(children: ChildMap(sortedUniqueElements: children), priority: priority)
        if !replaced.isEmpty, priority != node.priority {
            changes.append(.setPriority(path, priority))
        }
        return replaced
    }

    /// The children at the shard depth below `base`: those of shards not in `parts` kept, each restored shard's own
    /// from its part, merged in key order.
    private func replaceOwnedChildren(
        of base: Node, with parts: [Int: Node], at path: Path, namespace: String, changes: inout [ResolvedMutation]
    ) -> [ChildMap.Element] {
        var kept: [ChildMap.Element] = []
        for (key, child) in base.children {
            let childPath = path.appending(key)
            guard let owner = self.shard(namespace: namespace, path: childPath), let part = parts[owner] else {
                kept.append((key, child))
                continue
            }
            let restored = part.child(key)
            if restored != child { changes.append(.set(childPath, restored)) }
        }
        var lists = [kept]
        for (shard, part) in parts.sorted(by: { $0.key < $1.key }) where !part.isEmpty {
            var owned: [ChildMap.Element] = []
            for (key, child) in part.children {
                let childPath = path.appending(key)
                guard self.shard(namespace: namespace, path: childPath) == shard else { continue }
                if base.child(key).isEmpty { changes.append(.set(childPath, child)) }
                owned.append((key, child))
            }
            lists.append(owned)
        }
        return Node.mergeSortedChildren(lists)
    }
}
