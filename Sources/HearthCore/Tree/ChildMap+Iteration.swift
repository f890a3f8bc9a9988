/// Ordered traversal of a `ChildMap`, forwards or backwards from any key.
extension ChildMap {
    /// The children in ascending key order.
    /// - Complexity: O(log n) to start, O(1) amortised per element.
    public func makeIterator() -> Iterator {
        var iterator = Iterator(isAscending: true)
        iterator.descendToEdge(from: self.storage)
        return iterator
    }

    /// Children with keys at or after `key` (strictly after when `inclusive` is false), ascending.
    /// - Complexity: O(log n) to start, O(1) amortised per element.
    public func ascending(from key: Key, inclusive: Bool = true) -> Iterator {
        var iterator = Iterator(isAscending: true)
        let leaf = iterator.descend(from: self.storage, toward: key)
        var index = Self.lowerBound(key, in: leaf)
        if !inclusive, index < leaf.count, leaf[index].key == key {
            index += 1
        }
        iterator.index = index
        return iterator
    }

    /// Children with keys at or before `key` (strictly before when `inclusive` is false), descending.
    /// - Complexity: O(log n) to start, O(1) amortised per element.
    public func descending(from key: Key, inclusive: Bool = true) -> Iterator {
        var iterator = Iterator(isAscending: false)
        let leaf = iterator.descend(from: self.storage, toward: key)
        let index = Self.lowerBound(key, in: leaf)
        let isPresent = index < leaf.count && leaf[index].key == key
        iterator.index = inclusive && isPresent ? index : index - 1
        return iterator
    }

    /// All children in descending key order.
    /// - Complexity: O(log n) to start, O(1) amortised per element.
    public func reversedElements() -> Iterator {
        var iterator = Iterator(isAscending: false)
        iterator.descendToEdge(from: self.storage)
        return iterator
    }

    /// Walks the map forwards or backwards from a position, leaf by leaf.
    ///
    /// Holds the current leaf's elements and the inner nodes above them, so it keeps the version it started on alive
    /// and never sees later updates. Walking a small map allocates nothing.
    public struct Iterator: IteratorProtocol, Sequence {
        /// The inner nodes above `leaf`, root first, each with the index of the child being walked.
        private var ancestors: [(node: TreeNode, index: Int)]
        /// The elements being walked: a small map's array or one tree leaf's; empty once the walk is over.
        private var leaf: [Entry]
        /// The next position in `leaf`; may lie just outside it, which moves the walk to the neighbouring leaf.
        fileprivate var index: Int
        private let isAscending: Bool

        fileprivate init(isAscending: Bool) {
            self.ancestors = []
            self.leaf = []
            self.index = 0
            self.isAscending = isAscending
        }

        public mutating func next() -> Element? {
            repeat {
                if self.index >= 0, self.index < self.leaf.count {
                    let entry = self.leaf[self.index]
                    self.index += self.isAscending ? 1 : -1
                    return (entry.key, entry.node)
                }
            } while self.moveToNeighbourLeaf()
            return nil
        }

        /// Descends from the map's `storage` to the elements that would hold `key`, recording the path; returns them.
        fileprivate mutating func descend(from storage: Storage, toward key: Key) -> [Entry] {
            switch storage {
            case .elements(let elements):
                self.leaf = elements
            case .tree(var node):
                self.ancestors.reserveCapacity(8)
                while !node.isLeaf {
                    let index = node.childIndex(for: key)
                    self.ancestors.append((node, index))
                    node = node.children[index]
                }
                self.leaf = node.elements
            }
            return self.leaf
        }

        /// Starts at the first (ascending) or last (descending) element of the map's `storage`.
        fileprivate mutating func descendToEdge(from storage: Storage) {
            switch storage {
            case .elements(let elements):
                self.leaf = elements
                self.index = self.isAscending ? 0 : elements.count - 1
            case .tree(let root):
                self.ancestors.reserveCapacity(8)
                self.descendToEdge(from: root)
            }
        }

        /// Descends from `node` along its first (ascending) or last (descending) edge to a leaf and starts there.
        private mutating func descendToEdge(from node: TreeNode) {
            var node = node
            while !node.isLeaf {
                let index = self.isAscending ? 0 : node.children.count - 1
                self.ancestors.append((node, index))
                node = node.children[index]
            }
            self.leaf = node.elements
            self.index = self.isAscending ? 0 : node.elements.count - 1
        }

        /// Climbs until an ancestor has a next (or previous) child, then descends to that child's edge leaf.
        /// Returns false, with the walk over, when there is none.
        private mutating func moveToNeighbourLeaf() -> Bool {
            let step = self.isAscending ? 1 : -1
            while let top = self.ancestors.popLast() {
                let index = top.index + step
                guard index >= 0, index < top.node.children.count else { continue }
                self.ancestors.append((top.node, index))
                self.descendToEdge(from: top.node.children[index])
                return true
            }
            self.leaf = []
            self.index = 0
            return false
        }
    }
}
