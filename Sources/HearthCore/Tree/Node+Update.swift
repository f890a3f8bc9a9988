/// Writing into the persistent tree: every update copies only the path from the root to the change.
extension Node {
    /// This node with `key` replaced by `child` (removed when `child` is empty).
    ///
    /// Follows Firebase's rules: writing a child into a leaf turns it into a children node that keeps the leaf's
    /// priority; removing the last child makes the node empty (and drops its priority).
    /// - Complexity: O(log n) in the number of children.
    public func updatingChild(_ key: Key, to child: Node) -> Node {
        switch self.storage?.content {
        case .children(let map):
            let updated = map.updating(key, with: child.isEmpty ? nil : child)
            return Node(children: updated, priority: self.priority)
        case .leaf, nil:
            if child.isEmpty { return self }
            return Node(children: ChildMap().updating(key, with: child), priority: self.priority)
        }
    }

    /// This node with the node at `path` replaced by `value` (removed when `value` is empty).
    /// - Complexity: O(depth × log n).
    public func setting(_ value: Node, at path: Path) -> Node {
        self.setting(value, at: path.keys[...])
    }

    private func setting(_ value: Node, at keys: ArraySlice<Key>) -> Node {
        guard let first = keys.first else { return value }
        let child = self.child(first)
        let updatedChild = child.setting(value, at: keys.dropFirst())
        if updatedChild.isIdentical(to: child) { return self }
        return self.updatingChild(first, to: updatedChild)
    }

    /// This node with the priority of the node at `path` replaced; nothing changes where that node is empty.
    public func settingPriority(_ priority: Priority?, at path: Path) -> Node {
        let target = self.node(at: path)
        if target.isEmpty { return self }
        return self.setting(target.withPriority(priority), at: path)
    }
}
