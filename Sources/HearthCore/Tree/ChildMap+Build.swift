/// Bulk construction of the B+tree from sorted elements, bottom-up in O(n).
extension ChildMap.TreeNode {
    /// A tree over `keys` and `values` (parallel, sorted, unique, non-empty nodes), or `nil` when there are none.
    ///
    /// Packs each level into as few nodes as `maximumFill` allows, with sizes differing by at most one, so every
    /// node but a lone root holds at least `minimumFill` entries.
    /// - Complexity: O(n).
    static func build(keys: [Key], values: [Node]) -> ChildMap.TreeNode? {
        precondition(keys.count == values.count, "ChildMap build in state keys=\(keys.count) values=\(values.count)")
        guard !keys.isEmpty else { return nil }
        var level = Self.evenRanges(splitting: keys.count).map { range in
            ChildMap.TreeNode(keys: Array(keys[range]), values: Array(values[range]))
        }
        while level.count > 1 {
            let nodes = level
            level = Self.evenRanges(splitting: nodes.count).map { range in
                ChildMap.TreeNode(children: Array(nodes[range]))
            }
        }
        return level.first
    }

    /// Splits `0..<total` into ⌈total / maximumFill⌉ consecutive ranges whose lengths differ by at most one.
    private static func evenRanges(splitting total: Int) -> [Range<Int>] {
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
