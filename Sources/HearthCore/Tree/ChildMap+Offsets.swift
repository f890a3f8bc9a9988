/// Positional access, for queries that count children (`limitToFirst`, `limitToLast`) without walking them all.
extension ChildMap {
    /// The number of children whose keys precede `key`: its position when present, else where it would go.
    /// - Complexity: O(log n) levels, each summing at most `maximumFill` subtree counts.
    public func offset(of key: Key) -> Int {
        switch self.storage {
        case .elements(let elements):
            return Self.lowerBound(key, in: elements)
        case .tree(var node):
            var offset = 0
            while !node.isLeaf {
                let index = node.childIndex(for: key)
                offset += node.childCount(in: 0..<index)
                node = node.child(at: index)
            }
            return offset + node.lowerBound(key)
        }
    }

    /// The child at position `offset` in key order; `offset` must be in `0..<count`.
    /// - Complexity: O(log n) levels, each summing at most `maximumFill` subtree counts.
    public func element(atOffset offset: Int) -> Element {
        guard offset >= 0, offset < self.count else {
            preconditionFailure("ChildMap.element(atOffset:) in state offset=\(offset) count=\(self.count)")
        }
        switch self.storage {
        case .elements(let elements):
            return elements[offset].element
        case .tree(var node):
            var remaining = offset
            while !node.isLeaf {
                var index = 0
                while remaining >= node.child(at: index).count {
                    remaining -= node.child(at: index).count
                    index += 1
                }
                node = node.child(at: index)
            }
            return node.element(at: remaining).element
        }
    }
}
