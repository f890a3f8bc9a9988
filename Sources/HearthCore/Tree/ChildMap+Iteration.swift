/// Ordered traversal of a `ChildMap`, forwards or backwards from any key.
extension ChildMap {
    /// The children in ascending key order.
    /// - Complexity: O(log n) to start, O(1) amortised per element.
    public func makeIterator() -> Iterator {
        guard let root = self.root else { return Iterator(isAscending: true) }
        var iterator = Iterator(isAscending: true)
        iterator.descendToEdge(from: root)
        return iterator
    }

    /// Children with keys at or after `key` (strictly after when `inclusive` is false), ascending.
    /// - Complexity: O(log n) to start, O(1) amortised per element.
    public func ascending(from key: Key, inclusive: Bool = true) -> Iterator {
        var iterator = Iterator(isAscending: true)
        guard let leaf = iterator.descend(from: self.root, toward: key) else { return iterator }
        var index = leaf.lowerBound(key)
        if !inclusive, index < leaf.keys.count, leaf.keys[index] == key {
            index += 1
        }
        iterator.index = index
        return iterator
    }

    /// Children with keys at or before `key` (strictly before when `inclusive` is false), descending.
    /// - Complexity: O(log n) to start, O(1) amortised per element.
    public func descending(from key: Key, inclusive: Bool = true) -> Iterator {
        var iterator = Iterator(isAscending: false)
        guard let leaf = iterator.descend(from: self.root, toward: key) else { return iterator }
        let index = leaf.lowerBound(key)
        let isPresent = index < leaf.keys.count && leaf.keys[index] == key
        iterator.index = inclusive && isPresent ? index : index - 1
        return iterator
    }

    /// All children in descending key order.
    /// - Complexity: O(log n) to start, O(1) amortised per element.
    public func reversedElements() -> Iterator {
        guard let root = self.root else { return Iterator(isAscending: false) }
        var iterator = Iterator(isAscending: false)
        iterator.descendToEdge(from: root)
        return iterator
    }

    /// Walks the map forwards or backwards from a position, leaf by leaf.
    ///
    /// Holds the current leaf and the inner nodes above it, so it keeps the version it started on alive and never
    /// sees later updates.
    public struct Iterator: IteratorProtocol, Sequence {
        /// The inner nodes above `leaf`, root first, each with the index of the child being walked.
        private var ancestors: [(node: TreeNode, index: Int)]
        /// The leaf being walked, or `nil` once the walk is over.
        private var leaf: TreeNode?
        /// The next position in `leaf`; may lie just outside it, which moves the walk to the neighbouring leaf.
        fileprivate var index: Int
        private let isAscending: Bool

        fileprivate init(isAscending: Bool) {
            self.ancestors = []
            self.leaf = nil
            self.index = 0
            self.isAscending = isAscending
        }

        public mutating func next() -> Element? {
            while let leaf = self.leaf {
                if self.index >= 0, self.index < leaf.keys.count {
                    let element = (key: leaf.keys[self.index], node: leaf.values[self.index])
                    self.index += self.isAscending ? 1 : -1
                    return element
                }
                self.moveToNeighbourLeaf()
            }
            return nil
        }

        /// Descends from `root` to the leaf that would hold `key`, recording the path; returns that leaf.
        fileprivate mutating func descend(from root: TreeNode?, toward key: Key) -> TreeNode? {
            guard var node = root else { return nil }
            self.ancestors.reserveCapacity(8)
            while !node.isLeaf {
                let index = node.childIndex(for: key)
                self.ancestors.append((node, index))
                node = node.children[index]
            }
            self.leaf = node
            return node
        }

        /// Descends from `node` along its first (ascending) or last (descending) edge to a leaf and starts there.
        fileprivate mutating func descendToEdge(from node: TreeNode) {
            var node = node
            while !node.isLeaf {
                let index = self.isAscending ? 0 : node.children.count - 1
                self.ancestors.append((node, index))
                node = node.children[index]
            }
            self.leaf = node
            self.index = self.isAscending ? 0 : node.keys.count - 1
        }

        /// Climbs until an ancestor has a next (or previous) child, then descends to that child's edge leaf.
        private mutating func moveToNeighbourLeaf() {
            let step = self.isAscending ? 1 : -1
            while let top = self.ancestors.popLast() {
                let index = top.index + step
                guard index >= 0, index < top.node.children.count else { continue }
                self.ancestors.append((top.node, index))
                self.descendToEdge(from: top.node.children[index])
                return
            }
            self.leaf = nil
        }
    }
}
