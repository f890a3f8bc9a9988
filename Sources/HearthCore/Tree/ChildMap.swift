/// The children of a node: a persistent map from `Key` to non-empty `Node`, kept in Firebase key order.
///
/// Value semantics with structural sharing. The map is a B+tree whose nodes (`TreeNode`, at most
/// `TreeNode.maximumFill` entries each) are immutable once shared: `updating` copies only the nodes on the path
/// from the root to the change and leaves this map untouched, so two versions share every other node. The
/// `mutating` `update` edits nodes in place when this map holds the only reference to them, which makes building a
/// large map one key at a time as cheap as with a mutable tree.
///
/// - Complexity: lookup, update and removal O(log n); bulk build from sorted elements O(n); iteration O(1)
///   amortised per element; `count` O(1).
public struct ChildMap: Sendable, Sequence {
    public typealias Element = (key: Key, node: Node)

    /// The root of the B+tree, or `nil` for the empty map. Never an empty leaf or an inner node with one child.
    var root: TreeNode?

    public init() {
        self.root = nil
    }

    /// Builds a map from elements already sorted by key with no duplicates, in O(n). Empty nodes are dropped.
    public init(sortedUniqueElements elements: some Sequence<Element>) {
        var keys: [Key] = []
        var values: [Node] = []
        keys.reserveCapacity(elements.underestimatedCount)
        values.reserveCapacity(elements.underestimatedCount)
        for element in elements where !element.node.isEmpty {
            assert(keys.last.map { $0 < element.key } ?? true, "sortedUniqueElements given \(element.key) out of order")
            keys.append(element.key)
            values.append(element.node)
        }
        self.root = TreeNode.build(keys: keys, values: values)
    }

    /// The number of children. O(1).
    public var count: Int { self.root?.count ?? 0 }

    public var isEmpty: Bool { self.root == nil }

    public var underestimatedCount: Int { self.count }

    /// The child named `key`, or `nil`.
    /// - Complexity: O(log n).
    public subscript(key: Key) -> Node? {
        guard var node = self.root else { return nil }
        while !node.isLeaf {
            node = node.children[node.childIndex(for: key)]
        }
        let index = node.lowerBound(key)
        guard index < node.keys.count, node.keys[index] == key else { return nil }
        return node.values[index]
    }

    /// A copy with `key` set to `node`, or removed when `node` is `nil` or empty.
    /// - Complexity: O(log n); the copy shares all but O(log n) tree nodes with this map.
    public func updating(_ key: Key, with node: Node?) -> ChildMap {
        var copy = self
        copy.update(key, with: node)
        return copy
    }

    /// Sets `key` to `node` in place, or removes it when `node` is `nil` or empty, and returns the previous child.
    ///
    /// Tree nodes this map shares with other versions are copied first, so other versions never change.
    /// - Complexity: O(log n).
    @discardableResult
    public mutating func update(_ key: Key, with node: Node?) -> Node? {
        if let node, !node.isEmpty {
            return self.insert(key, node)
        }
        return self.remove(key)
    }

    /// The child with the smallest key. O(log n).
    public var first: Element? {
        guard var node = self.root else { return nil }
        while let child = node.children.first {
            node = child
        }
        guard let key = node.keys.first, let value = node.values.first else { return nil }
        return (key, value)
    }

    /// The child with the largest key. O(log n).
    public var last: Element? {
        guard var node = self.root else { return nil }
        while let child = node.children.last {
            node = child
        }
        guard let key = node.keys.last, let value = node.values.last else { return nil }
        return (key, value)
    }
}
