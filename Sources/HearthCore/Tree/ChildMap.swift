/// The children of a node: a persistent map from `Key` to non-empty `Node`, kept in Firebase key order.
///
/// Value semantics with structural sharing: `updating` returns a new map and leaves this one untouched.
public struct ChildMap: Sendable, Sequence {
    public typealias Element = (key: Key, node: Node)

    private var keys: [Key]
    private var nodes: [Node]

    public init() {
        self.keys = []
        self.nodes = []
    }

    /// Builds a map from elements already sorted by key with no duplicates, in O(n).
    public init(sortedUniqueElements elements: some Sequence<Element>) {
        self.keys = []
        self.nodes = []
        for element in elements where !element.node.isEmpty {
            self.keys.append(element.key)
            self.nodes.append(element.node)
        }
    }

    public var count: Int { self.keys.count }
    public var isEmpty: Bool { self.keys.isEmpty }

    /// The child named `key`, or `nil`.
    /// - Complexity: O(log n).
    public subscript(key: Key) -> Node? {
        let index = self.lowerBound(key)
        guard index < self.keys.count, self.keys[index] == key else { return nil }
        return self.nodes[index]
    }

    /// A copy with `key` set to `node`, or removed when `node` is `nil` or empty.
    public func updating(_ key: Key, with node: Node?) -> ChildMap {
        var copy = self
        let index = copy.lowerBound(key)
        let exists = index < copy.keys.count && copy.keys[index] == key
        if let node, !node.isEmpty {
            if exists {
                copy.nodes[index] = node
            } else {
                copy.keys.insert(key, at: index)
                copy.nodes.insert(node, at: index)
            }
        } else if exists {
            copy.keys.remove(at: index)
            copy.nodes.remove(at: index)
        }
        return copy
    }

    public var first: Element? { self.keys.first.map { ($0, self.nodes[0]) } }
    public var last: Element? { self.keys.last.map { ($0, self.nodes[self.nodes.count - 1]) } }

    /// The children in ascending key order.
    public func makeIterator() -> Iterator {
        Iterator(map: self, index: 0, end: self.keys.count, step: 1)
    }

    /// Children with keys at or after `key` (strictly after when `inclusive` is false), ascending.
    /// - Complexity: O(log n) to start, O(1) per element.
    public func ascending(from key: Key, inclusive: Bool = true) -> Iterator {
        var index = self.lowerBound(key)
        if !inclusive, index < self.keys.count, self.keys[index] == key { index += 1 }
        return Iterator(map: self, index: index, end: self.keys.count, step: 1)
    }

    /// Children with keys at or before `key` (strictly before when `inclusive` is false), descending.
    public func descending(from key: Key, inclusive: Bool = true) -> Iterator {
        var index = self.lowerBound(key)
        if inclusive, index < self.keys.count, self.keys[index] == key { index += 1 }
        return Iterator(map: self, index: index - 1, end: -1, step: -1)
    }

    /// All children in descending key order.
    public func reversedElements() -> Iterator {
        Iterator(map: self, index: self.keys.count - 1, end: -1, step: -1)
    }

    /// Walks the map forwards or backwards between two positions.
    public struct Iterator: IteratorProtocol, Sequence {
        let map: ChildMap
        var index: Int
        let end: Int
        let step: Int

        public mutating func next() -> Element? {
            guard self.index != self.end else { return nil }
            defer { self.index += self.step }
            return (self.map.keys[self.index], self.map.nodes[self.index])
        }
    }

    private func lowerBound(_ key: Key) -> Int {
        var low = 0
        var high = self.keys.count
        while low < high {
            let middle = (low + high) / 2
            if self.keys[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
