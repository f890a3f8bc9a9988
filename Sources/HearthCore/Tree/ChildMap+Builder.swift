extension ChildMap {
    /// Builds a map from children given one at a time in ascending key order, straight into full B+tree leaves: a
    /// huge map costs its tree and nothing more, with no array of every child gathered first (splitting a spine node
    /// of four million children across the shards held each child in such an array on top of the shards' maps).
    ///
    /// - Complexity: O(1) amortised per child; O(n / `TreeNode.maximumFill`) more in `finish()`.
    public struct Builder {
        /// The full leaves so far.
        private var leaves: [TreeNode] = []
        /// The leaf being filled.
        private var current: [Entry] = []
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
            assert(self.current.last.map { $0.key < key } ?? true, "ChildMap.Builder given \(key) out of order")
            if self.current.count == TreeNode.maximumFill {
                self.leaves.append(TreeNode(elements: self.current))
                self.current = []
                self.current.reserveCapacity(TreeNode.maximumFill)
            }
            self.current.append(Entry(key: key, node: node))
            self.count += 1
        }

        /// The map of every child given. A last leaf short of `TreeNode.minimumFill` shares the previous leaf's
        /// elements evenly with it, so every leaf holds between the minimum and maximum fill.
        public consuming func finish() -> ChildMap {
            var map = ChildMap()
            guard var previous = self.leaves.popLast() else {
                map.storage = .elements(self.current)
                return map
            }
            if self.current.count < TreeNode.minimumFill {
                let joined = previous.elements + self.current
                let half = joined.count / 2
                previous = TreeNode(elements: Array(joined[..<half]))
                self.current = Array(joined[half...])
            }
            var level = self.leaves
            level.append(previous)
            level.append(TreeNode(elements: self.current))
            while level.count > 1 {
                let nodes = level
                level = TreeNode.evenRanges(splitting: nodes.count).map { range in
                    TreeNode(children: Array(nodes[range]))
                }
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
