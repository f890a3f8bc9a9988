/// Running a query from a maintained index of the location's children (`IndexTree`) instead of scanning them.
extension QuerySpec {
    /// Whether `tree` can answer this query: it orders by the query's index, and the query needs an order at all
    /// (the key index and loading everything need no index).
    public func isAnswered(by tree: IndexTree) -> Bool {
        !self.loadsAllData && self.index != .key && tree.index == self.index
    }

    /// The same result as `evaluate(node)`, read from `tree`, the index of `node`'s children.
    /// - Precondition: `isAnswered(by: tree)`, and `tree` reflects `node`.
    /// - Complexity: O(log n + k log n) for the k children returned.
    public func evaluate(_ node: Node, index tree: IndexTree) -> Node {
        var window = self.window(tree).map(\.key)
        window.sort()
        return Node(children: ChildMap(sortedUniqueElements: window.lazy.map { (key: $0, node: node.child($0)) }))
    }

    /// The same as `orderedChildren(node)`, read from `tree`.
    /// - Precondition: `isAnswered(by: tree)`, and `tree` reflects `node`.
    public func orderedChildren(_ node: Node, index tree: IndexTree) -> [(key: Key, node: Node)] {
        self.window(tree).map { (key: $0.key, node: node.child($0.key)) }
    }

    /// The entries in range and within the limit, in index order.
    private func window(_ tree: IndexTree) -> [IndexTree.Entry] {
        precondition(self.isAnswered(by: tree), "the index of \(tree.index) cannot answer \(self)")
        let range = QueryRange(self)
        let count = self.limit?.count ?? Int.max
        var window: [IndexTree.Entry] = []
        if self.limit?.anchor == .last {
            var walk = tree.descending(from: range.end)
            while window.count < count, let entry = walk.next(), range.isAfterStart(entry.key, entry.value) {
                window.append(entry)
            }
            window.reverse()
        } else {
            var walk = tree.ascending(from: range.start)
            while window.count < count, let entry = walk.next(), range.isBeforeEnd(entry.key, entry.value) {
                window.append(entry)
            }
        }
        return window
    }
}
