extension ChildMap {
    /// Builds a map from children given one at a time in ascending key order, straight into full B+tree leaves: a
    /// huge map costs its tree and nothing more, with no array of every child gathered first (splitting a spine node
    /// of four million children across the shards held each child in such an array on top of the shards' maps).
    ///
    /// - Complexity: O(1) amortised per child; O(n / `TreeNode.maximumFill`) more in `finish()`.
    public struct Builder {
        /// The full leaves so far.
        private var leaves: [TreeNode] = []
        /// The first leaf's elements, while they are few enough for a small map.
        private var current: [Entry] = []
        /// The leaf being filled, once there is more than one leaf: children go straight into it.
        private var open: TreeNode?
        /// How many children were given so far (for the order check in debug builds).
        public private(set) var count = 0

        /// A builder for about `expectedCount` children (0 when unknown). Only the first leaf's capacity depends on
        /// it: a small map keeps the array it is built in, so reserving a whole leaf for a map of six children would
        /// cost every such map a kilobyte.
        public init(expectedCount: Int = 0) {
            self.current.reserveCapacity(Swift.min(Swift.max(expectedCount, 0), TreeNode.maximumFill))
        }

        /// Adds `node` under `key`, which must follow every key given so far; an empty node is skipped.
        public mutating func append(_ key: Key, _ node: Node) {
            guard !node.isEmpty else { return }
            assert(self.lastKey.map { $0 < key } ?? true, "ChildMap.Builder given \(key) out of order")
            let entry = Entry(key: key, node: node)
            self.count += 1
            guard var open = self.open else {
                guard self.current.count == TreeNode.maximumFill else {
                    self.current.append(entry)
                    return
                }
                self.leaves.append(TreeNode.leaf(copying: self.current))
                self.current = []
                self.open = Self.leaf(startingWith: entry)
                return
            }
            // Let go of the builder's reference, so the leaf is written in place unless a copy of this builder holds it.
            self.open = nil
            if open.fill == TreeNode.maximumFill {
                self.leaves.append(open)
                open = Self.leaf(startingWith: entry)
            } else {
                if !isKnownUniquelyReferenced(&open) {
                    open = open.copy()
                }
                open.appendElement(entry)
            }
            self.open = open
        }

        /// A new leaf holding `entry`.
        private static func leaf(startingWith entry: Entry) -> TreeNode {
            let leaf = TreeNode.makeLeaf()
            leaf.appendElement(entry)
            return leaf
        }

        /// The last key given, for the order check.
        private var lastKey: Key? {
            guard let open = self.open else { return self.current.last?.key }
            return open.element(at: open.fill - 1).key
        }

        /// The map of every child given. A last leaf short of `TreeNode.minimumFill` shares the previous leaf's
        /// elements evenly with it, so every leaf holds between the minimum and maximum fill.
        public consuming func finish() -> ChildMap {
            var map = ChildMap()
            guard var last = self.open, var previous = self.leaves.popLast() else {
                map.storage = .elements(self.current)
                return map
            }
            self.open = nil
            if last.fill < TreeNode.minimumFill {
                if !isKnownUniquelyReferenced(&previous) { previous = previous.copy() }
                if !isKnownUniquelyReferenced(&last) { last = last.copy() }
                TreeNode.redistribute(previous, last)
            }
            var level = self.leaves
            level.append(previous)
            level.append(last)
            while level.count > 1 {
                let nodes = level
                level = TreeNode.evenRanges(splitting: nodes.count).map { range in TreeNode.inner(nodes[range]) }
            }
            guard let root = level.first else {
                preconditionFailure("ChildMap.Builder produced no root in state count=\(self.count)")
            }
            map.storage = .tree(root)
            return map
        }
    }
}

extension ChildMap.TreeNode {
    /// Splits `0..<total` into ⌈total / maximumFill⌉ consecutive ranges whose lengths differ by at most one: one
    /// level of inner nodes over `total` nodes, each holding between `minimumFill` and `maximumFill` of them.
    static func evenRanges(splitting total: Int) -> [Range<Int>] {
        let groups = (total + Self.maximumFill - 1) / Self.maximumFill
        let base = total / groups
        let extra = total % groups
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(groups)
        var start = 0
        for group in 0..<groups {
            let length = group < extra ? base + 1 : base
            ranges.append(start..<(start + length))
            start += length
        }
        return ranges
    }
}
