/// Ordering children under a query index (§2.4, §4.1–§4.3).
///
/// Children compare by `(index value, key)`: the index value in Firebase's value order (or priority order for the
/// priority index), ties by key order. The key index compares keys alone.
extension QueryIndex {
    /// True when child `lhs` sorts before child `rhs` under this index.
    ///
    /// The value index reads each child's own value; a child index reads the node at its (possibly nested) path under
    /// each child, where a missing node is `null` and a node with children counts as an object. Priorities on the
    /// compared values are ignored except by the priority index, which uses `PriorityOrder`.
    /// - Complexity: O(1) for the key and priority indexes, O(d log n) to read a child path of depth `d`.
    public func precedes(_ lhs: (key: Key, node: Node), _ rhs: (key: Key, node: Node)) -> Bool {
        switch self {
        case .key:
            return lhs.key < rhs.key
        case .priority:
            return PriorityOrder.precedes(lhs.node.priority, lhs.key, rhs.node.priority, rhs.key)
        case .value, .child:
            let order = IndexValue.compare(self.indexValue(of: lhs.node), self.indexValue(of: rhs.node))
            if order != 0 { return order < 0 }
            return lhs.key < rhs.key
        }
    }

    /// What this index sorts a child by (the key index sorts by key, so its value is always `null`).
    /// - Complexity: O(d log n) for a child path of depth `d`, else O(1).
    func indexValue(of child: Node) -> IndexValue {
        switch self {
        case .key: .null
        case .priority: IndexValue(child.priority)
        case .value: IndexValue(node: child)
        case .child(let path): IndexValue(node: child.node(at: path))
        }
    }
}

/// A child with its index value computed once, so scans and heaps don't re-read child paths on every comparison.
struct IndexedChild {
    let key: Key
    let node: Node
    let value: IndexValue

    /// `(value, key)` order: the order of every index except the key index (where all values are `null`, so this
    /// is key order too).
    static func precedes(_ lhs: IndexedChild, _ rhs: IndexedChild) -> Bool {
        let order = IndexValue.compare(lhs.value, rhs.value)
        if order != 0 { return order < 0 }
        return lhs.key < rhs.key
    }
}

/// One end of a range as a comparable post: `(value, name)`, or just a name under the key index.
struct Post {
    let value: IndexValue
    let name: BoundName
    let inclusive: Bool

    /// The post of `bound` under `index`; `isStart` picks the default name (`[MIN_NAME]` or `[MAX_NAME]`).
    init(_ bound: QueryBound, index: QueryIndex, isStart: Bool) {
        self.inclusive = bound.inclusive
        if index == .key {
            self.value = .null
            if case .string(let key) = bound.value {
                self.name = BoundName(Key(unchecked: key))
            } else {
                preconditionFailure("key-index bound with a non-string value in state \(bound)")
            }
        } else {
            self.value = IndexValue(bound.value)
            self.name = bound.name.map { BoundName($0) } ?? (isStart ? .min : .max)
        }
    }

    /// -1, 0 or 1 comparing a child with this post.
    func compare(_ key: Key, _ value: IndexValue) -> Int {
        let order = IndexValue.compare(value, self.value)
        if order != 0 { return order }
        return self.name.compare(childKey: key)
    }
}

/// The range of a query as two posts; answers "is this child in range?" ignoring any limit.
struct QueryRange {
    let start: Post?
    let end: Post?

    init(_ spec: QuerySpec) {
        self.start = spec.start.map { Post($0, index: spec.index, isStart: true) }
        self.end = spec.end.map { Post($0, index: spec.index, isStart: false) }
    }

    var isUnbounded: Bool { self.start == nil && self.end == nil }

    /// True when the child is at or after the start post (strictly after for an exclusive start).
    func isAfterStart(_ key: Key, _ value: IndexValue) -> Bool {
        guard let start = self.start else { return true }
        return Self.isAfter(start, key, value)
    }

    /// True when the child is at or before the end post (strictly before for an exclusive end).
    func isBeforeEnd(_ key: Key, _ value: IndexValue) -> Bool {
        guard let end = self.end else { return true }
        return Self.isBefore(end, key, value)
    }

    /// True when the child is at or after `start` (strictly after when it is exclusive).
    static func isAfter(_ start: Post, _ key: Key, _ value: IndexValue) -> Bool {
        let order = start.compare(key, value)
        return order > 0 || (order == 0 && start.inclusive)
    }

    /// True when the child is at or before `end` (strictly before when it is exclusive).
    static func isBefore(_ end: Post, _ key: Key, _ value: IndexValue) -> Bool {
        let order = end.compare(key, value)
        return order < 0 || (order == 0 && end.inclusive)
    }

    func contains(_ key: Key, _ value: IndexValue) -> Bool {
        self.isAfterStart(key, value) && self.isBeforeEnd(key, value)
    }
}
