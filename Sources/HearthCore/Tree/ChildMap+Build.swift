/// Bulk construction of the B+tree from sorted elements, bottom-up in O(n).
extension ChildMap.TreeNode {
    /// The storage for `elements` (sorted, unique, non-empty nodes): the array itself when it fits in one leaf,
    /// else a B+tree over it.
    ///
    /// Packs each tree level into as few nodes as `maximumFill` allows, with sizes differing by at most one, so every
    /// node but the root holds at least `minimumFill` entries.
    /// - Complexity: O(n).
    static func build(_ elements: [ChildMap.Element]) -> ChildMap.Storage {
        guard elements.count > Self.maximumFill else { return .elements(elements) }
        var level = Self.evenRanges(splitting: elements.count).map { range in
            ChildMap.TreeNode(elements: Array(elements[range]))
        }
        while level.count > 1 {
            let nodes = level
            level = Self.evenRanges(splitting: nodes.count).map { range in
                ChildMap.TreeNode(children: Array(nodes[range]))
            }
        }
        guard let root = level.first else {
            preconditionFailure("ChildMap build produced no root in state count=\(elements.count)")
        }
        return .tree(root)
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
