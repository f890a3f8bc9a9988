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
                self.storage = .tree(TreeNode.splitting(elements))
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
            self.storage = .tree(split.map { TreeNode.inner([root, $0]) } ?? root)
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
            self.storage = Self.storage(afterRemovalFrom: root)
            return previous
        }
    }

    /// What a map whose tree root is `root` becomes after a removal: the root's only child (a leaf's elements as a
    /// small map) when it has one left, else the tree.
    static func storage(afterRemovalFrom root: TreeNode) -> Storage {
        guard root.fill == 1 else { return .tree(root) }
        let child = root.child(at: 0)
        return child.isLeaf ? .elements(child.elementArray) : .tree(child)
    }
}

extension ChildMap.TreeNode {
    /// Sets `key` to `value` in this subtree, which the caller holds uniquely.
    /// - Returns: the replaced value, and the new right sibling when this node overflowed and split.
    func insert(_ key: Key, _ value: Node) -> (previous: Node?, split: ChildMap.TreeNode?) {
        if self.isLeaf {
            let index = self.lowerBound(key)
            let elements = self.elementBase
            if index < self.fill, elements[index].key == key {
                let previous = elements[index].node
                elements[index].node = value
                return (previous, nil)
            }
            self.insertElement(ChildMap.Entry(key: key, node: value), at: index)
            return (nil, self.fill > Self.maximumFill ? self.splitOff() : nil)
        }
        let index = self.childIndex(for: key)
        let (previous, split) = self.withUniqueChild(at: index) { child in child.insert(key, value) }
        if previous == nil {
            self.count += 1
        }
        if index == 0 {
            self.refreshKey(at: 0)
        }
        if let split {
            self.insertChild(split, at: index + 1)
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
            guard index < self.fill, self.elementBase[index].key == key else { return nil }
            return self.removeElement(at: index).node
        }
        let index = self.childIndex(for: key)
        let removed = self.withUniqueChild(at: index) { child in child.remove(key).map { ($0, child.fill) } }
        guard let (previous, fill) = removed else { return nil }
        self.count -= 1
        if fill < Self.minimumFill {
            self.rebalanceChild(at: index)
        } else {
            self.refreshKey(at: index)
        }
        return previous
    }

    /// Moves the upper half of this overfull node into a new right sibling and returns it.
    func splitOff() -> ChildMap.TreeNode {
        let fill = self.fill
        let middle = fill / 2
        let moved = fill - middle
        let sibling: ChildMap.TreeNode
        if self.isLeaf {
            sibling = Self.makeLeaf()
            Self.moveEntries(from: self, at: middle, to: sibling, at: 0, count: moved)
            sibling.header.pointee.fill = moved
            sibling.count = moved
        } else {
            sibling = Self.makeInner(keys: Array(self.header.pointee.keys[middle...]))
            Self.moveEntries(from: self, at: middle, to: sibling, at: 0, count: moved)
            sibling.header.pointee.fill = moved
            sibling.count = sibling.childCount(in: 0..<moved)
            self.header.pointee.keys.removeSubrange(middle...)
        }
        self.header.pointee.fill = middle
        self.count -= sibling.count
        return sibling
    }

    /// Restores the fill of the underfull child at `index` by merging it with a neighbour, or, when both together
    /// would overflow, by sharing the neighbour's entries evenly. Only the nodes written to are copied.
    func rebalanceChild(at index: Int) {
        guard self.fill > 1 else {
            self.header.pointee.keys[index] = self.childBase[index].minimumKey
            return
        }
        let leftIndex = index > 0 ? index - 1 : index
        let rightIndex = leftIndex + 1
        let left = self.uniqueChild(at: leftIndex)
        if left.fill + self.childBase[rightIndex].fill <= Self.maximumFill {
            left.append(copiesOf: self.childBase[rightIndex])
            self.removeChild(at: rightIndex)
        } else {
            let right = self.uniqueChild(at: rightIndex)
            Self.redistribute(left, right)
            self.header.pointee.keys[rightIndex] = right.minimumKey
        }
        self.header.pointee.keys[leftIndex] = left.minimumKey
    }

    /// Evens out two adjacent siblings of the same kind, both held uniquely, so each holds half their entries (left
    /// gets the floor). The entries are moved, not copied.
    static func redistribute(_ left: ChildMap.TreeNode, _ right: ChildMap.TreeNode) {
        let (leftFill, rightFill) = (left.fill, right.fill)
        let target = (leftFill + rightFill) / 2
        if leftFill < target {
            let moved = target - leftFill
            let movedCount = left.isLeaf ? moved : right.childCount(in: 0..<moved)
            Self.moveEntries(from: right, at: 0, to: left, at: leftFill, count: moved)
            Self.moveEntries(from: right, at: moved, to: right, at: 0, count: rightFill - moved)
            if !left.isLeaf {
                left.header.pointee.keys.append(contentsOf: right.header.pointee.keys[..<moved])
                right.header.pointee.keys.removeSubrange(..<moved)
            }
            left.header.pointee.fill = leftFill + moved
            right.header.pointee.fill = rightFill - moved
            left.count += movedCount
            right.count -= movedCount
        } else if leftFill > target {
            let moved = leftFill - target
            let movedCount = left.isLeaf ? moved : left.childCount(in: target..<leftFill)
            Self.moveEntries(from: right, at: 0, to: right, at: moved, count: rightFill)
            Self.moveEntries(from: left, at: target, to: right, at: 0, count: moved)
            if !left.isLeaf {
                right.header.pointee.keys.insert(contentsOf: left.header.pointee.keys[target...], at: 0)
                left.header.pointee.keys.removeSubrange(target...)
            }
            left.header.pointee.fill = target
            right.header.pointee.fill = rightFill + moved
            left.count -= movedCount
            right.count += movedCount
        }
    }
}
