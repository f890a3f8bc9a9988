/// Running a query against the node at its path (§2.4).
extension QuerySpec {
    /// The children that survive the query, as a node: the result a listen or REST read sends.
    ///
    /// A leaf or empty node at the path gives `.empty`, and the result never carries the root's priority (children
    /// keep theirs).
    /// - Complexity: O(1) when the query loads all data; O(log n + k) under the key index; otherwise one O(n) scan,
    ///   O(n log k) with a limit of `k`, plus O(k log k) to put the survivors back in key order.
    public func evaluate(_ node: Node) -> Node {
        let children = node.children
        if children.isEmpty { return .empty }
        if self.loadsAllData { return Node(children: children) }
        if self.index == .key {
            return Node(children: ChildMap(sortedUniqueElements: self.keyWindow(children)))
        }
        if self.limit == nil {
            let survivors = self.rangeScan(children).lazy.map { (key: $0.key, node: $0.node) }
            return Node(children: ChildMap(sortedUniqueElements: survivors))
        }
        var survivors = self.limitedScan(children)
        survivors.sort { $0.key < $1.key }
        return Node(children: ChildMap(sortedUniqueElements: survivors.lazy.map { (key: $0.key, node: $0.node) }))
    }

    /// The children that survive the query, in index order: the window a limited listener tracks.
    /// - Complexity: O(log n + k) under the key index; otherwise O(n log k) with a limit of `k`, or
    ///   O(n + m log m) for the `m` children in range without one.
    public func orderedChildren(_ node: Node) -> [(key: Key, node: Node)] {
        let children = node.children
        if children.isEmpty { return [] }
        if self.index == .key { return self.keyWindow(children) }
        let survivors: [IndexedChild]
        if self.limit == nil {
            survivors = self.rangeScan(children).sorted(by: IndexedChild.precedes)
        } else {
            survivors = self.limitedScan(children)
        }
        return survivors.map { ($0.key, $0.node) }
    }

    /// True when the child named `key` holding `node` lies within the query's start and end, ignoring the limit.
    ///
    /// Incremental listeners use this to decide whether a changed child can enter the window. An empty `node` (a
    /// removed child) is never contained.
    /// - Complexity: O(1), or O(d log n) to read a child path of depth `d`.
    public func contains(key: Key, node: Node) -> Bool {
        if node.isEmpty { return false }
        return QueryRange(self).contains(key, self.index.indexValue(of: node))
    }

    /// The key-index window, walked straight from the ChildMap: O(log n) to find the first child, O(1) per child.
    private func keyWindow(_ children: ChildMap) -> [(key: Key, node: Node)] {
        let range = QueryRange(self)
        let count = self.limit?.count ?? Int.max
        var window: [(key: Key, node: Node)] = []
        if self.limit?.anchor == .last {
            for child in self.descendingFromEnd(children, range.end) {
                guard range.isAfterStart(child.key, .null) else { break }
                window.append(child)
                if window.count == count { break }
            }
            window.reverse()
        } else {
            for child in self.ascendingFromStart(children, range.start) {
                guard range.isBeforeEnd(child.key, .null) else { break }
                window.append(child)
                if window.count == count { break }
            }
        }
        return window
    }

    private func ascendingFromStart(_ children: ChildMap, _ start: Post?) -> ChildMap.Iterator {
        switch start?.name {
        case nil, .min: children.makeIterator()
        case .max: ChildMap().makeIterator()
        case .key(let key): children.ascending(from: key, inclusive: start?.inclusive ?? true)
        }
    }

    private func descendingFromEnd(_ children: ChildMap, _ end: Post?) -> ChildMap.Iterator {
        switch end?.name {
        case nil, .max: children.reversedElements()
        case .min: ChildMap().makeIterator()
        case .key(let key): children.descending(from: key, inclusive: end?.inclusive ?? true)
        }
    }

    /// Every child in range, in key order.
    private func rangeScan(_ children: ChildMap) -> [IndexedChild] {
        let range = QueryRange(self)
        var survivors: [IndexedChild] = []
        for (key, node) in children {
            let value = self.index.indexValue(of: node)
            if range.contains(key, value) {
                survivors.append(IndexedChild(key: key, node: node, value: value))
            }
        }
        return survivors
    }

    /// The limited window in index order, chosen with a bounded heap so the n children are never all sorted.
    private func limitedScan(_ children: ChildMap) -> [IndexedChild] {
        guard let limit = self.limit else { preconditionFailure("limited scan in state \(self) without a limit") }
        let range = QueryRange(self)
        let keepsLowest = limit.anchor == .first
        var heap = BoundedHeap<IndexedChild>(capacity: limit.count) { kept, candidate in
            keepsLowest ? IndexedChild.precedes(candidate, kept) : IndexedChild.precedes(kept, candidate)
        }
        for (key, node) in children {
            let value = self.index.indexValue(of: node)
            if range.contains(key, value) {
                heap.insert(IndexedChild(key: key, node: node, value: value))
            }
        }
        let best = heap.sortedBestFirst()
        return keepsLowest ? best : best.reversed()
    }
}
