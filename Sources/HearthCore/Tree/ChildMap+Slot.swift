/// Finding where a child is stored without taking a reference to anything on the way: the read path of
/// `Node.node(at:)`, which passes several levels per lookup and needs only the last one.
///
/// Every pointer here points into memory a map version owns (a small map's array buffer or a B+tree node's entries)
/// and is valid only while the caller keeps that version alive and unmodified; the caller (`Node.node(at:)`) holds
/// the root of the tree it walks for the whole walk, and a shared node is never modified, so every level below stays
/// alive and unchanged. Pointers are used within the walk and never stored.
extension ChildMap {
    /// Where the map's children live, read without a retain: a small map's elements, or a B+tree's root node.
    enum Place {
        case elements(UnsafeBufferPointer<Entry>)
        case tree(Unmanaged<TreeNode>)
    }

    /// This map's place. The array buffer or root node stays owned by the map; the result is valid while the map is.
    var place: Place {
        switch self.storage {
        case .elements(let elements): .elements(elements.withUnsafeBufferPointer { $0 })
        case .tree(let root): .tree(Unmanaged.passUnretained(root))
        }
    }
}

extension ChildMap.Place {
    /// The entry holding the child named `key`, or `nil` when absent. O(log n); retains nothing.
    func slot(for key: Key) -> UnsafePointer<ChildMap.Entry>? {
        switch self {
        case .elements(let elements):
            return Self.slot(for: key, in: elements)
        case .tree(var node):
            while !node._withUnsafeGuaranteedRef({ $0.isLeaf }) {
                node = node._withUnsafeGuaranteedRef { inner in
                    let index = inner.childIndex(for: key)
                    return UnsafeRawPointer(inner.childBase + index).load(as: Unmanaged<ChildMap.TreeNode>.self)
                }
            }
            return node._withUnsafeGuaranteedRef { leaf in
                Self.slot(for: key, in: UnsafeBufferPointer(start: leaf.elementBase, count: leaf.fill))
            }
        }
    }

    /// The entry of `elements` whose key is `key`, or `nil`.
    private static func slot(
        for key: Key,
        in elements: UnsafeBufferPointer<ChildMap.Entry>
    ) -> UnsafePointer<ChildMap.Entry>? {
        let index = ChildMap.lowerBound(key, in: elements)
        guard index < elements.count, elements[index].key == key, let base = elements.baseAddress else { return nil }
        return base + index
    }
}
