/// Insertion and removal: B+tree splits, borrows and merges, with path copying for shared nodes.
extension ChildMap {
    /// Sets `key` to the non-empty `value`, returning the value it replaces. O(log n).
    ///
    /// A small map that grows past `TreeNode.maximumFill` elements becomes a tree of two leaves.
    mutating func insert(_ key: Key, _ value: Node) -> Node? {
        switch self.storage {
        case .elements(var elements):
            // Drop this map's reference first, so the array is copied only when another version shares it.
            self.storage = .elements([])
            let previous = Self.insert(key, value, into: &elements)
            if elements.count > TreeNode.maximumFill {
                self.storage = .tree(TreeNode(splitting: elements))
            } else {
                self.storage = .elements(elements)
            }
            return previous
        case .tree(var root):
            self.storage = .elements([])
            if !isKnownUniquelyReferenced(&root) {
                root = root.copy()
            }
            let (previous, split) = root.insert(key, value)
            self.storage = .tree(split.map { TreeNode(children: [root, $0]) } ?? root)
            return previous
        }
    }

    /// Removes `key`, returning its value; a missing key copies nothing. O(log n).
    ///
    /// A tree whose root is left with a single leaf becomes a small map holding that leaf's elements.
    mutating func remove(_ key: Key) -> Node? {
        guard self[key] != nil else { return nil }
        return self.removeExisting(key)
    }

    /// Removes `key`, which the map holds, returning its value: `remove` without the lookup that spares a missing
    /// key the copies. O(log n).
    mutating func removeExisting(_ key: Key) -> Node? {
        switch self.storage {
        case .elements(var elements):
            self.storage = .elements([])
            let previous = Self.remove(key, from: &elements)
            self.storage = .elements(elements)
            return previous
        case .tree(var root):
            self.storage = .elements([])
            if !isKnownUniquelyReferenced(&root) {
                root = root.copy()
            }
            let previous = root.remove(key)
            if root.children.count == 1, let child = root.children.first {
                self.storage = child.isLeaf ? .elements(child.elements) : .tree(child)
            } else {
                self.storage = .tree(root)
            }
            return previous
        }
    }
}

extension ChildMap.TreeNode {
    /// Sets `key` to `value` in this subtree, which the caller holds uniquely.
    /// - Returns: the replaced value, and the new right sibling when this node overflowed and split.
    func insert(_ key: Key, _ value: Node) -> (previous: Node?, split: ChildMap.TreeNode?) {
        if self.isLeaf {
            if let previous = ChildMap.insert(key, value, into: &self.elements) {
                return (previous, nil)
            }
            self.count += 1
            return (nil, self.fill > Self.maximumFill ? self.splitOff() : nil)
        }
        let index = self.childIndex(for: key)
        let child = self.uniqueChild(at: index)
        let (previous, split) = child.insert(key, value)
        if previous == nil {
            self.count += 1
        }
        if index == 0 {
            self.refreshKey(at: 0)
        }
        if let split {
            self.keys.insert(split.minimumKey, at: index + 1)
            self.children.insert(split, at: index + 1)
        }
        return (previous, self.fill > Self.maximumFill ? self.splitOff() : nil)
    }

    /// Removes `key` from this subtree, which the caller holds uniquely, and returns its value.
    ///
    /// Afterwards this node may hold fewer than `minimumFill` entries; its parent (or `ChildMap.remove` for the
    /// root) repairs that.
    func remove(_ key: Key) -> Node? {
        if self.isLeaf {
            guard let previous = ChildMap.remove(key, from: &self.elements) else { return nil }
            self.count -= 1
            return previous
        }
        let index = self.childIndex(for: key)
        let child = self.uniqueChild(at: index)
        guard let previous = child.remove(key) else { return nil }
        self.count -= 1
        if child.fill < Self.minimumFill {
            self.rebalanceChild(at: index)
        } else {
            self.refreshKey(at: index)
        }
        return previous
    }

    /// Moves the upper half of this overfull node into a new right sibling and returns it.
    func splitOff() -> ChildMap.TreeNode {
        let middle = self.fill / 2
        let sibling: ChildMap.TreeNode
        if self.isLeaf {
            sibling = ChildMap.TreeNode(elements: Array(self.elements[middle...]))
            self.elements.removeSubrange(middle...)
        } else {
            sibling = ChildMap.TreeNode(children: Array(self.children[middle...]))
            self.children.removeSubrange(middle...)
            self.keys.removeSubrange(middle...)
        }
        self.count -= sibling.count
        return sibling
    }

    /// Restores the fill of the underfull child at `index` by merging it with a neighbour, or, when both together
    /// would overflow, by sharing the neighbour's entries evenly. Only the nodes written to are copied.
    func rebalanceChild(at index: Int) {
        guard self.children.count > 1 else {
            self.keys[index] = self.children[index].minimumKey
            return
        }
        let leftIndex = index > 0 ? index - 1 : index
        let rightIndex = leftIndex + 1
        let left = self.uniqueChild(at: leftIndex)
        if left.fill + self.children[rightIndex].fill <= Self.maximumFill {
            left.append(contentsOf: self.children[rightIndex])
            self.keys.remove(at: rightIndex)
            self.children.remove(at: rightIndex)
        } else {
            let right = self.uniqueChild(at: rightIndex)
            Self.redistribute(left, right)
            self.keys[rightIndex] = right.minimumKey
        }
        self.keys[leftIndex] = left.minimumKey
    }

    /// Appends every entry of `other`, a sibling to the right of the same kind, to this node.
    private func append(contentsOf other: ChildMap.TreeNode) {
        self.elements.append(contentsOf: other.elements)
        self.keys.append(contentsOf: other.keys)
        self.children.append(contentsOf: other.children)
        self.count += other.count
    }

    /// Evens out two adjacent siblings of the same kind so each holds half their entries (left gets the floor).
    private static func redistribute(_ left: ChildMap.TreeNode, _ right: ChildMap.TreeNode) {
        let target = (left.fill + right.fill) / 2
        if left.fill < target {
            let moved = target - left.fill
            if left.isLeaf {
                left.elements.append(contentsOf: right.elements[..<moved])
                right.elements.removeSubrange(..<moved)
                left.count += moved
                right.count -= moved
            } else {
                let movedCount = right.children[..<moved].reduce(0) { $0 + $1.count }
                left.keys.append(contentsOf: right.keys[..<moved])
                right.keys.removeSubrange(..<moved)
                left.children.append(contentsOf: right.children[..<moved])
                right.children.removeSubrange(..<moved)
                left.count += movedCount
                right.count -= movedCount
            }
        } else if left.fill > target {
            let start = target
            if left.isLeaf {
                let moved = left.elements.count - start
                right.elements.insert(contentsOf: left.elements[start...], at: 0)
                left.elements.removeSubrange(start...)
                left.count -= moved
                right.count += moved
            } else {
                let movedCount = left.children[start...].reduce(0) { $0 + $1.count }
                right.keys.insert(contentsOf: left.keys[start...], at: 0)
                left.keys.removeSubrange(start...)
                right.children.insert(contentsOf: left.children[start...], at: 0)
                left.children.removeSubrange(start...)
                left.count -= movedCount
                right.count += movedCount
            }
        }
    }
}
