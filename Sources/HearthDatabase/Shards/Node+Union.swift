import HearthCore

extension Node {
    /// Joins shard parts of one value: their subtrees at the shard depth are disjoint and their spine leaves and
    /// priorities are copies of each other, so the union is the value they were cut from (`ShardRouter.split`).
    /// - Complexity: O(n log k) over the children of the spine levels of k parts.
    static func union(_ parts: [Node]) -> Node {
        let present = parts.filter { !$0.isEmpty }
        guard let first = present.first else { return .empty }
        if present.count == 1 || first.isLeaf { return first }
        let priority = present.lazy.compactMap(\.priority).first
        let children = Self.mergeSortedChildren(present.map { Array($0.children) })
        return Node(children: ChildMap(sortedUniqueElements: children), priority: priority)
    }

    /// Merges key-sorted child lists pairwise, a layer at a time, into one; a key in several (a spine node) is
    /// joined recursively.
    /// - Complexity: O(n log k) for n children over k lists.
    static func mergeSortedChildren(_ lists: [[ChildMap.Element]]) -> [ChildMap.Element] {
        var layer = lists
        while layer.count > 1 {
            var next: [[ChildMap.Element]] = []
            for start in stride(from: 0, to: layer.count, by: 2) {
                next.append(start + 1 < layer.count ? Self.mergeSorted(layer[start], layer[start + 1]) : layer[start])
            }
            layer = next
        }
        return layer.first ?? []
    }

    /// Merges two key-sorted child lists; a key in both (a spine node) is joined recursively.
    private static func mergeSorted(_ a: [ChildMap.Element], _ b: [ChildMap.Element]) -> [ChildMap.Element] {
        var merged: [ChildMap.Element] = []
        merged.reserveCapacity(a.count + b.count)
        var i = 0
        var j = 0
        while i < a.count, j < b.count {
            if a[i].key < b[j].key {
                merged.append(a[i])
                i += 1
            } else if b[j].key < a[i].key {
                merged.append(b[j])
                j += 1
            } else {
                merged.append((key: a[i].key, node: Self.union([a[i].node, b[j].node])))
                i += 1
                j += 1
            }
        }
        merged.append(contentsOf: a[i...])
        merged.append(contentsOf: b[j...])
        return merged
    }
}
