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
        iterator.descend(from: self.storage, toward: key)
        var index = iterator.lowerBound(key)
        if !inclusive, iterator.holds(key, at: index) {
            index += 1
        }
        iterator.index = index
        return iterator
    }

    /// Children with keys at or before `key` (strictly before when `inclusive` is false), descending.
    /// - Complexity: O(log n) to start, O(1) amortised per element.
    public func descending(from key: Key, inclusive: Bool = true) -> Iterator {
        var iterator = Iterator(isAscending: false)
        iterator.descend(from: self.storage, toward: key)
        let index = iterator.lowerBound(key)
        iterator.index = inclusive && iterator.holds(key, at: index) ? index : index - 1
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
    /// Holds the current leaf (or a small map's elements) and the inner nodes above it, so it keeps the version it
    /// started on alive and never sees later updates: a node another holder references is never written. Walking a small map allocates nothing.
    public struct Iterator: IteratorProtocol, Sequence {
        /// The inner nodes above `leaf`, root first, each with the index of the child being walked.
        private var ancestors: [(node: TreeNode, index: Int)]
        /// A small map's elements, when it is a small map being walked; empty otherwise.
        private var elements: [Entry]
        /// The tree leaf being walked, when it is a tree; `nil` once the walk is over.
        private var leaf: TreeNode?
        /// The number of elements being walked: `elements`' or `leaf`'s.
        private var runCount: Int
        /// The next position in `leaf`; may lie just outside it, which moves the walk to the neighbouring leaf.
        fileprivate var index: Int
        private let isAscending: Bool

        fileprivate init(isAscending: Bool) {
            self.ancestors = []
            self.elements = []
            self.leaf = nil
            self.runCount = 0
            self.index = 0
            self.isAscending = isAscending
        }

        public mutating func next() -> Element? {
            repeat {
                if self.index >= 0, self.index < self.runCount {
                    let entry = self.leaf?.element(at: self.index) ?? self.elements[self.index]
                    self.index += self.isAscending ? 1 : -1
                    return (entry.key, entry.node)
                }
            } while self.moveToNeighbourLeaf()
            return nil
        }

        /// Descends from the map's `storage` to the elements that would hold `key`, recording the path.
        fileprivate mutating func descend(from storage: Storage, toward key: Key) {
            switch storage {
            case .elements(let elements):
                self.walk(elements)
            case .tree(var node):
                self.ancestors.reserveCapacity(8)
                while !node.isLeaf {
                    let index = node.childIndex(for: key)
                    self.ancestors.append((node, index))
                    node = node.child(at: index)
                }
                self.walk(node)
            }
        }

        /// The first position in the elements being walked whose key is not less than `key`.
        fileprivate func lowerBound(_ key: Key) -> Int {
            self.leaf?.lowerBound(key) ?? ChildMap.lowerBound(key, in: self.elements)
        }

        /// Whether the elements being walked hold `key` at `index`.
        fileprivate func holds(_ key: Key, at index: Int) -> Bool {
            guard index >= 0, index < self.runCount else { return false }
            return (self.leaf?.element(at: index) ?? self.elements[index]).key == key
        }

        /// Walks a small map's `elements`.
        private mutating func walk(_ elements: [Entry]) {
            self.elements = elements
            self.leaf = nil
            self.runCount = elements.count
        }

        /// Walks a tree `leaf`.
        private mutating func walk(_ leaf: TreeNode) {
            self.runCount = leaf.fill
            self.leaf = leaf
        }

        /// Starts at the first (ascending) or last (descending) element of the map's `storage`.
        fileprivate mutating func descendToEdge(from storage: Storage) {
            switch storage {
            case .elements(let elements):
                self.walk(elements)
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
                let index = self.isAscending ? 0 : node.fill - 1
                self.ancestors.append((node, index))
                node = node.child(at: index)
            }
            self.walk(node)
            self.index = self.isAscending ? 0 : node.fill - 1
        }

        /// Climbs until an ancestor has a next (or previous) child, then descends to that child's edge leaf.
        /// Returns false, with the walk over, when there is none.
        private mutating func moveToNeighbourLeaf() -> Bool {
            let step = self.isAscending ? 1 : -1
            while let top = self.ancestors.popLast() {
                let index = top.index + step
                guard index >= 0, index < top.node.fill else { continue }
                self.ancestors.append((top.node, index))
                self.descendToEdge(from: top.node.child(at: index))
                return true
            }
            self.walk([])
            self.index = 0
            return false
        }
    }
}
