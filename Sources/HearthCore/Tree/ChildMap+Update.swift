/// Insertion and removal: B+tree splits, borrows and merges, with path copying for shared nodes.
extension ChildMap {
    /// Sets `key` to the non-empty `value`, returning the value it replaces. O(log n).
    mutating func insert(_ key: Key, _ value: Node) -> Node? {
        if !isKnownUniquelyReferenced(&self.root) {
            self.root = self.root?.copy()
        }
        guard let root = self.root else {
            self.root = TreeNode(keys: [key], values: [value])
            return nil
        }
        let (previous, split) = root.insert(key, value)
        if let split {
            self.root = TreeNode(children: [root, split])
        }
        return previous
    }

    /// Removes `key`, returning its value; a missing key copies nothing. O(log n).
    mutating func remove(_ key: Key) -> Node? {
        guard self[key] != nil else { return nil }
        if !isKnownUniquelyReferenced(&self.root) {
            self.root = self.root?.copy()
        }
        guard let root = self.root else { return nil }
        let previous = root.remove(key)
        if root.isLeaf {
            if root.keys.isEmpty {
                self.root = nil
            }
        } else if root.children.count == 1 {
            self.root = root.children.first
        }
        return previous
    }
}

extension ChildMap.TreeNode {
    /// Sets `key` to `value` in this subtree, which the caller holds uniquely.
    /// - Returns: the replaced value, and the new right sibling when this node overflowed and split.
    func insert(_ key: Key, _ value: Node) -> (previous: Node?, split: ChildMap.TreeNode?) {
        if self.isLeaf {
            let index = self.lowerBound(key)
            if index < self.keys.count, self.keys[index] == key {
                let previous = self.values[index]
                self.values[index] = value
                return (previous, nil)
            }
            self.keys.insert(key, at: index)
            self.values.insert(value, at: index)
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
            self.keys[0] = child.minimumKey
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
            let index = self.lowerBound(key)
            guard index < self.keys.count, self.keys[index] == key else { return nil }
            self.keys.remove(at: index)
            self.count -= 1
            return self.values.remove(at: index)
        }
        let index = self.childIndex(for: key)
        let child = self.uniqueChild(at: index)
        guard let previous = child.remove(key) else { return nil }
        self.count -= 1
        if child.fill < Self.minimumFill {
            self.rebalanceChild(at: index)
        } else {
            self.keys[index] = child.minimumKey
        }
        return previous
    }

    /// Moves the upper half of this overfull node into a new right sibling and returns it.
    private func splitOff() -> ChildMap.TreeNode {
        let middle = self.fill / 2
        let sibling: ChildMap.TreeNode
        if self.isLeaf {
            sibling = ChildMap.TreeNode(keys: Array(self.keys[middle...]), values: Array(self.values[middle...]))
            self.values.removeSubrange(middle...)
        } else {
            sibling = ChildMap.TreeNode(children: Array(self.children[middle...]))
            self.children.removeSubrange(middle...)
        }
        self.keys.removeSubrange(middle...)
        self.count -= sibling.count
        return sibling
    }

    /// Restores the fill of the underfull child at `index` by merging it with a neighbour, or, when both together
    /// would overflow, by sharing the neighbour's entries evenly. Only the nodes written to are copied.
    private func rebalanceChild(at index: Int) {
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
        self.keys.append(contentsOf: other.keys)
        self.values.append(contentsOf: other.values)
        self.children.append(contentsOf: other.children)
        self.count += other.count
    }

    /// Evens out two adjacent siblings of the same kind so each holds half their entries (left gets the floor).
    private static func redistribute(_ left: ChildMap.TreeNode, _ right: ChildMap.TreeNode) {
        let target = (left.fill + right.fill) / 2
        if left.fill < target {
            let moved = target - left.fill
            left.keys.append(contentsOf: right.keys[..<moved])
            right.keys.removeSubrange(..<moved)
            if left.isLeaf {
                left.values.append(contentsOf: right.values[..<moved])
                right.values.removeSubrange(..<moved)
                left.count += moved
                right.count -= moved
            } else {
                let movedCount = right.children[..<moved].reduce(0) { $0 + $1.count }
                left.children.append(contentsOf: right.children[..<moved])
                right.children.removeSubrange(..<moved)
                left.count += movedCount
                right.count -= movedCount
            }
        } else if left.fill > target {
            let start = target
            right.keys.insert(contentsOf: left.keys[start...], at: 0)
            left.keys.removeSubrange(start...)
            if left.isLeaf {
                let moved = left.values.count - start
                right.values.insert(contentsOf: left.values[start...], at: 0)
                left.values.removeSubrange(start...)
                left.count -= moved
                right.count += moved
            } else {
                let movedCount = left.children[start...].reduce(0) { $0 + $1.count }
                right.children.insert(contentsOf: left.children[start...], at: 0)
                left.children.removeSubrange(start...)
                left.count -= movedCount
                right.count += movedCount
            }
        }
    }
}
