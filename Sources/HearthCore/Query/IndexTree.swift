/// The children of one location in an index's order, `(index value, key)`, as a persistent balanced tree (AVL with
/// path copying): what `.indexOn` keeps so that an ordered query over n children answers in O(log n + k) instead
/// of scanning them all.
///
/// A tree reflects one version of the location's node; `updating` makes the tree of the next version from the
/// children a write changed, in O(log n) each, sharing everything else with the old tree (so a reader holding the
/// old tree is never disturbed).
public struct IndexTree: Sendable {
    final class Entry: Sendable {
        let value: IndexValue
        let key: Key
        let left: Entry?
        let right: Entry?
        let height: Int

        init(value: IndexValue, key: Key, left: Entry?, right: Entry?) {
            self.value = value
            self.key = key
            self.left = left
            self.right = right
            self.height = max(left?.height ?? 0, right?.height ?? 0) + 1
        }

        func with(left: Entry?, right: Entry?) -> Entry {
            Entry(value: self.value, key: self.key, left: left, right: right)
        }
    }

    let index: QueryIndex
    private(set) var root: Entry?
    /// How many children the tree orders.
    public private(set) var count: Int

    /// The tree of `node`'s children under `index` (a value, priority or child index; the key index needs none).
    /// - Complexity: O(n log n) for n children.
    public init(_ node: Node, index: QueryIndex) {
        var entries: [(value: IndexValue, key: Key)] = []
        entries.reserveCapacity(node.childCount)
        for (key, child) in node.children { entries.append((index.indexValue(of: child), key)) }
        entries.sort { Self.precedes($0.value, $0.key, $1.value, $1.key) }
        self.index = index
        self.count = entries.count
        self.root = Self.build(entries[...])
    }

    /// The tree after the children named `keys` changed from what `old` holds to what `new` holds.
    /// - Precondition: the tree reflects `old`.
    /// - Complexity: O(m log n) for m keys.
    public func updating(_ keys: some Sequence<Key>, old: Node, new: Node) -> IndexTree {
        var tree = self
        for key in Set(keys) {
            let before = old.child(key)
            let after = new.child(key)
            if !before.isEmpty {
                tree.root = Self.removing(self.index.indexValue(of: before), key, from: tree.root)
                tree.count -= 1
            }
            if !after.isEmpty {
                tree.root = Self.inserting(self.index.indexValue(of: after), key, into: tree.root)
                tree.count += 1
            }
        }
        return tree
    }

    /// Every child in order, as `(value, key)`: for tests and invariant checks.
    var entries: [(value: IndexValue, key: Key)] {
        var entries: [(value: IndexValue, key: Key)] = []
        var iterator = self.ascending(from: nil)
        while let entry = iterator.next() { entries.append((entry.value, entry.key)) }
        return entries
    }

    /// Whether every entry is ordered and every node balanced: for tests.
    var isValid: Bool {
        func check(_ entry: Entry?) -> Bool {
            guard let entry else { return true }
            let balance = (entry.left?.height ?? 0) - (entry.right?.height ?? 0)
            return abs(balance) <= 1 && check(entry.left) && check(entry.right)
        }
        let entries = self.entries
        let ordered = zip(entries, entries.dropFirst()).allSatisfy {
            Self.precedes($0.0.value, $0.0.key, $0.1.value, $0.1.key)
        }
        return ordered && entries.count == self.count && check(self.root)
    }

    static func precedes(_ lhsValue: IndexValue, _ lhsKey: Key, _ rhsValue: IndexValue, _ rhsKey: Key) -> Bool {
        let order = IndexValue.compare(lhsValue, rhsValue)
        if order != 0 { return order < 0 }
        return lhsKey < rhsKey
    }

    private static func build(_ entries: ArraySlice<(value: IndexValue, key: Key)>) -> Entry? {
        guard !entries.isEmpty else { return nil }
        let middle = entries.startIndex + entries.count / 2
        return Entry(
            value: entries[middle].value, key: entries[middle].key, left: Self.build(entries[..<middle]),
            right: Self.build(entries[(middle + 1)...]))
    }

    private static func inserting(_ value: IndexValue, _ key: Key, into entry: Entry?) -> Entry {
        guard let entry else { return Entry(value: value, key: key, left: nil, right: nil) }
        if Self.precedes(value, key, entry.value, entry.key) {
            return Self.balanced(entry.with(left: Self.inserting(value, key, into: entry.left), right: entry.right))
        }
        if Self.precedes(entry.value, entry.key, value, key) {
            return Self.balanced(entry.with(left: entry.left, right: Self.inserting(value, key, into: entry.right)))
        }
        return entry
    }

    private static func removing(_ value: IndexValue, _ key: Key, from entry: Entry?) -> Entry? {
        guard let entry else { return nil }
        if Self.precedes(value, key, entry.value, entry.key) {
            return Self.balanced(entry.with(left: Self.removing(value, key, from: entry.left), right: entry.right))
        }
        if Self.precedes(entry.value, entry.key, value, key) {
            return Self.balanced(entry.with(left: entry.left, right: Self.removing(value, key, from: entry.right)))
        }
        guard let left = entry.left else { return entry.right }
        guard let right = entry.right else { return left }
        var smallest = right
        while let next = smallest.left { smallest = next }
        let rest = Self.removing(smallest.value, smallest.key, from: right)
        return Self.balanced(Entry(value: smallest.value, key: smallest.key, left: left, right: rest))
    }

    private static func balanced(_ entry: Entry) -> Entry {
        let balance = (entry.left?.height ?? 0) - (entry.right?.height ?? 0)
        if balance > 1, let left = entry.left {
            let pivot = (left.left?.height ?? 0) >= (left.right?.height ?? 0) ? left : Self.rotatedLeft(left)
            return Self.rotatedRight(entry.with(left: pivot, right: entry.right))
        }
        if balance < -1, let right = entry.right {
            let pivot = (right.right?.height ?? 0) >= (right.left?.height ?? 0) ? right : Self.rotatedRight(right)
            return Self.rotatedLeft(entry.with(left: entry.left, right: pivot))
        }
        return entry
    }

    private static func rotatedRight(_ entry: Entry) -> Entry {
        guard let left = entry.left else { return entry }
        return left.with(left: left.left, right: entry.with(left: left.right, right: entry.right))
    }

    private static func rotatedLeft(_ entry: Entry) -> Entry {
        guard let right = entry.right else { return entry }
        return right.with(left: entry.with(left: entry.left, right: right.left), right: right.right)
    }
}

extension IndexTree {
    /// Walks the entries in order: ascending from the first at or after `start` (all when nil), or descending from
    /// the last at or before `end`. O(log n) to begin, amortised O(1) a step.
    struct Walk: IteratorProtocol {
        private var stack: [Entry] = []
        private let isAscending: Bool

        init(root: Entry?, ascendingFrom start: Post?) {
            self.isAscending = true
            var entry = root
            while let current = entry {
                if start.map({ QueryRange.isAfter($0, current.key, current.value) }) ?? true {
                    self.stack.append(current)
                    entry = current.left
                } else {
                    entry = current.right
                }
            }
        }

        init(root: Entry?, descendingFrom end: Post?) {
            self.isAscending = false
            var entry = root
            while let current = entry {
                if end.map({ QueryRange.isBefore($0, current.key, current.value) }) ?? true {
                    self.stack.append(current)
                    entry = current.right
                } else {
                    entry = current.left
                }
            }
        }

        mutating func next() -> Entry? {
            guard let entry = self.stack.popLast() else { return nil }
            var next = self.isAscending ? entry.right : entry.left
            while let current = next {
                self.stack.append(current)
                next = self.isAscending ? current.left : current.right
            }
            return entry
        }
    }

    func ascending(from start: Post?) -> Walk { Walk(root: self.root, ascendingFrom: start) }
    func descending(from end: Post?) -> Walk { Walk(root: self.root, descendingFrom: end) }
}
