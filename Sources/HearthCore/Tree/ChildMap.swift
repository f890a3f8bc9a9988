/// The children of a node: a persistent map from `Key` to non-empty `Node`, kept in Firebase key order.
///
/// Value semantics with structural sharing. Most maps in real data are small, so a map of at most
/// `TreeNode.maximumFill` children is a single sorted array of elements: one allocation, shared copy-on-write.
/// Larger maps are a B+tree whose nodes (`TreeNode`, at most `TreeNode.maximumFill` entries each) are immutable once
/// shared: `updating` copies only the nodes on the path from the root to the change and leaves this map untouched,
/// so two versions share every other node. The `mutating` `update` edits nodes in place when this map holds the only
/// reference to them, which makes building a large map one key at a time as cheap as with a mutable tree.
///
/// - Complexity: lookup, update and removal O(log n); bulk build from sorted elements O(n); iteration O(1)
///   amortised per element; `count` O(1).
public struct ChildMap: Sendable, Sequence {
    public typealias Element = (key: Key, node: Node)

    /// One child as the map stores it. A struct rather than the tuple `Element`, so that copying and destroying an
    /// array of children runs this type's own value witnesses instead of the runtime's generic tuple ones
    /// (`tuple_initializeWithCopy`, `tuple_destroy`, one metadata walk per field): the write loop copies an array on
    /// the first write to a node after each published snapshot, and the commit thread frees the old versions. The
    /// same size and layout as `Element`.
    struct Entry: Sendable {
        var key: Key
        var node: Node

        /// The child as the public tuple.
        var element: Element { (self.key, self.node) }
    }

    /// The two shapes of a map, chosen by size so small maps pay for one array and nothing else.
    enum Storage: Sendable {
        /// At most `TreeNode.maximumFill` elements (none for the empty map), ascending by key.
        case elements([Entry])
        /// More elements: a B+tree whose root is an inner node with at least two children.
        case tree(TreeNode)
    }

    var storage: Storage

    public init() {
        self.storage = .elements([])
    }

    /// Builds a map from elements already sorted by key with no duplicates, in O(n). Empty nodes are dropped.
    public init(sortedUniqueElements elements: some Sequence<Element>) {
        var builder = Builder(expectedCount: elements.underestimatedCount)
        for element in elements { builder.append(element.key, element.node) }
        self = builder.finish()
    }

    /// The number of children. O(1).
    public var count: Int {
        switch self.storage {
        case .elements(let elements): elements.count
        case .tree(let root): root.count
        }
    }

    public var isEmpty: Bool { self.count == 0 }

    public var underestimatedCount: Int { self.count }

    /// The child named `key`, or `nil`.
    /// - Complexity: O(log n).
    public subscript(key: Key) -> Node? {
        switch self.storage {
        case .elements(let elements):
            return Self.node(for: key, in: elements)
        case .tree(var node):
            while !node.isLeaf {
                node = node.child(at: node.childIndex(for: key))
            }
            return node.node(for: key)
        }
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
    /// Arrays and tree nodes this map shares with other versions are copied first, so other versions never change.
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
        switch self.storage {
        case .elements(let elements):
            return elements.first?.element
        case .tree(var node):
            while !node.isLeaf {
                node = node.child(at: 0)
            }
            return node.element(at: 0).element
        }
    }

    /// The child with the largest key. O(log n).
    public var last: Element? {
        switch self.storage {
        case .elements(let elements):
            return elements.last?.element
        case .tree(var node):
            while !node.isLeaf {
                node = node.child(at: node.fill - 1)
            }
            return node.element(at: node.fill - 1).element
        }
    }
}
