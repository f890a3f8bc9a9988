/// Editing one child where it lies, so a tree that holds the only reference to its nodes can be written without
/// copying them.
extension ChildMap {
    /// Runs `body` on the child named `key` in place (an absent child starts as `.empty`), then stores what `body`
    /// left there: a child left empty is removed, a new non-empty one inserted.
    ///
    /// Arrays and tree nodes this map shares with other versions are copied first, exactly as `update` does; the
    /// child itself is handed to `body` with no other reference from this map, so `body` can edit it in place too.
    /// The insert or removal happens at the position the one descent found: a write that adds or deletes a child
    /// (a star set or taken back) walks the map once, not once to look and again to store.
    /// - Complexity: O(log n) plus the cost of `body`.
    mutating func modifyChild(_ key: Key, _ body: (inout Node) -> Void) {
        // Moved out of this map, so the array or root is copied only when another version shares it.
        switch self.takeStorage() {
        case .elements(var elements):
            Self.modifyChild(key, in: &elements, body)
            if elements.count > TreeNode.maximumFill {
                self.storage = .tree(TreeNode.splitting(elements))
            } else {
                self.storage = .elements(elements)
            }
        case .tree(var root):
            if !isKnownUniquelyReferenced(&root) {
                root = root.copy()
            }
            let (delta, split) = root.modifyChild(key, body)
            if let split {
                self.storage = .tree(TreeNode.inner([root, split]))
            } else if delta < 0 {
                self.storage = Self.storage(afterRemovalFrom: root)
            } else {
                self.storage = .tree(root)
            }
        }
    }

    /// `modifyChild` on one sorted run of entries: runs `body` on the entry named `key` (or on `.empty` where there
    /// is none) and removes, keeps or inserts the entry at the position found. Returns the change in count.
    @discardableResult
    static func modifyChild(_ key: Key, in elements: inout [Entry], _ body: (inout Node) -> Void) -> Int {
        let index = Self.lowerBound(key, in: elements)
        if index < elements.count, elements[index].key == key {
            body(&elements[index].node)
            guard elements[index].node.isEmpty else { return 0 }
            elements.remove(at: index)
            return -1
        }
        var child = Node.empty
        body(&child)
        guard !child.isEmpty else { return 0 }
        elements.insert(Entry(key: key, node: child), at: index)
        return 1
    }
}

extension ChildMap.TreeNode {
    /// A tree of two leaves holding `elements`, a small map's array one element past `maximumFill`, split in half.
    static func splitting(_ elements: [ChildMap.Entry]) -> ChildMap.TreeNode {
        let middle = elements.count / 2
        return Self.inner([Self.leaf(copying: elements[..<middle]), Self.leaf(copying: elements[middle...])])
    }

    /// Runs `body` on the element named `key` in this subtree, which the caller holds uniquely, and stores what it
    /// left as `ChildMap.modifyChild` does, keeping counts, separator keys and fills as `insert` and `remove` do.
    /// - Returns: the change in count (-1, 0 or 1), and the new right sibling when this node overflowed and split.
    func modifyChild(_ key: Key, _ body: (inout Node) -> Void) -> (delta: Int, split: ChildMap.TreeNode?) {
        if self.isLeaf {
            let delta = self.modifyElement(key, body)
            return (delta, delta > 0 && self.fill > Self.maximumFill ? self.splitOff() : nil)
        }
        let index = self.childIndex(for: key)
        let (delta, split, fill) = self.withUniqueChild(at: index) { child in
            let (delta, split) = child.modifyChild(key, body)
            return (delta, split, child.fill)
        }
        self.count += delta
        if delta < 0 {
            if fill < Self.minimumFill {
                self.rebalanceChild(at: index)
            } else {
                self.refreshKey(at: index)
            }
        } else if delta > 0, index == 0 {
            self.refreshKey(at: 0)
        }
        if let split {
            self.insertChild(split, at: index + 1)
        }
        return (delta, self.fill > Self.maximumFill ? self.splitOff() : nil)
    }

    /// `ChildMap.modifyChild` on a leaf, which the caller holds uniquely: runs `body` on the element named `key` in
    /// place (or on `.empty` where there is none) and removes, keeps or inserts the element at the position found.
    /// Returns the change in count.
    private func modifyElement(_ key: Key, _ body: (inout Node) -> Void) -> Int {
        let index = self.lowerBound(key)
        let elements = self.elementBase
        if index < self.fill, elements[index].key == key {
            body(&elements[index].node)
            guard elements[index].node.isEmpty else { return 0 }
            _ = self.removeElement(at: index)
            return -1
        }
        var child = Node.empty
        body(&child)
        guard !child.isEmpty else { return 0 }
        self.insertElement(ChildMap.Entry(key: key, node: child), at: index)
        return 1
    }
}
