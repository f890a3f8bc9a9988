extension ChildMap {
    /// One node of the persistent B+tree behind a `ChildMap` of more than `maximumFill` children.
    ///
    /// Leaves hold the elements in one array (`elements`, ascending), so a leaf costs two allocations (the node and
    /// its array). Inner nodes hold `children` and, in `keys`, the smallest key below each child, so a lookup picks
    /// the last child whose smallest key is at or before the key it seeks. Every node but the root holds between
    /// `minimumFill` and `maximumFill` entries, and all leaves sit at the same depth, which bounds the height by
    /// log₁₆(n) + 1 (at most six levels for a million children). The root is always an inner node: a map small
    /// enough for one leaf keeps its elements array directly (`ChildMap.Storage.elements`) and needs no node.
    ///
    /// The fan-out of 32 is a measured trade-off: persistent updates copy one node per level, so their cost grows with
    /// the fan-out, while lookups and iteration are dominated by cache misses and barely change between 32 and 64.
    ///
    /// Nodes are shared between map versions and treated as immutable while shared; a map mutates a node only after
    /// `isKnownUniquelyReferenced` proved that it holds the sole reference (see `uniqueChild(at:)` and
    /// `ChildMap.update`).
    ///
    /// `@unchecked Sendable` is safe because of that rule: a node is written only through a reference that is the
    /// only one in existence, so no other thread can be reading it at the same time; once a second reference exists
    /// (the map was copied, possibly to another thread), the node is never written again. For the same reason its
    /// stored properties are exempt from the runtime's exclusivity checks (`@exclusivity(unchecked)`): a check costs
    /// a call and an access-set entry on every read and write, and no two accesses to a node can overlap.
    final class TreeNode: @unchecked Sendable {
        /// The most entries (elements or children) a node holds; inserting one more splits it in two.
        static let maximumFill = 32
        /// The fewest entries a non-root node holds; removing below this borrows from or merges with a sibling.
        static let minimumFill = 16

        /// Leaves only: the elements, ascending by key. Never empty nodes.
        @exclusivity(unchecked) var elements: [Entry]
        /// Inner nodes only: the smallest key below each child.
        @exclusivity(unchecked) var keys: [Key]
        /// Inner nodes only: the subtrees, parallel to `keys`.
        @exclusivity(unchecked) var children: [TreeNode]
        /// The number of elements in this subtree.
        @exclusivity(unchecked) var count: Int
        /// True for leaves, which hold elements; false for inner nodes, which hold children.
        let isLeaf: Bool

        /// A leaf holding `elements`.
        init(elements: [Entry]) {
            self.elements = elements
            self.keys = []
            self.children = []
            self.count = elements.count
            self.isLeaf = true
        }

        /// An inner node over `children`, which must be non-empty and in key order.
        init(children: [TreeNode]) {
            self.elements = []
            self.keys = children.map(\.minimumKey)
            self.children = children
            self.count = children.reduce(0) { $0 + $1.count }
            self.isLeaf = false
        }

        /// A node with the same content and its own copy of the array a write changes next: a leaf's elements (with
        /// room for one more), an inner node's children (which the descent below it replaces). Copied here, one entry
        /// at a time in code specialised for the entry's type, rather than by the first write's copy-on-write, which
        /// runs the runtime's generic `swift_arrayInitWithCopy` (a value-witness call per entry). `keys` stays shared
        /// until written.
        private init(copying other: TreeNode) {
            self.elements = other.isLeaf ? Self.copied(other.elements) : other.elements
            self.keys = other.keys
            self.children = other.isLeaf ? other.children : Self.copied(other.children)
            self.count = other.count
            self.isLeaf = other.isLeaf
        }

        /// A new array of `array`'s items with room for one more (an insert then fits without growing it to twice
        /// its size), copied one by one.
        private static func copied<Item>(_ array: [Item]) -> [Item] {
            [Item](unsafeUninitializedCapacity: array.count + 1) { buffer, initialized in
                guard let target = buffer.baseAddress else { return }
                array.withUnsafeBufferPointer { source in
                    for index in source.indices {
                        (target + index).initialize(to: source[index])
                    }
                }
                initialized = array.count
            }
        }

        /// A private copy of this node, for a map about to modify a node it shares with other versions. O(fill).
        func copy() -> TreeNode {
            TreeNode(copying: self)
        }

        /// The smallest key in this subtree: a leaf's first element, or an inner node's first separator.
        var minimumKey: Key {
            guard let key = self.isLeaf ? self.elements.first?.key : self.keys.first else {
                preconditionFailure("ChildMap.TreeNode has no keys in state count=\(self.count) isLeaf=\(self.isLeaf)")
            }
            return key
        }

        /// The number of entries: elements in a leaf, children in an inner node.
        var fill: Int { self.isLeaf ? self.elements.count : self.children.count }

        /// In an inner node, the child whose subtree would hold `key`: the last child whose smallest key is at or
        /// before `key`, or the first child when `key` precedes them all. O(log fill).
        /// The key's bytes and integer value are read once for the whole search (`Key.Probe`).
        func childIndex(for key: Key) -> Int {
            self.keys.withUnsafeBufferPointer { keys in
                key.withProbe { probe in
                    var low = 0
                    var high = keys.count
                    while low < high {
                        let middle = (low + high) / 2
                        if probe?.precedes(keys[middle]) ?? (key < keys[middle]) {
                            high = middle
                        } else {
                            low = middle + 1
                        }
                    }
                    return Swift.max(low - 1, 0)
                }
            }
        }

        /// Sets the separator at `index` to its child's smallest key. Only a key that changed is written: a write
        /// to `keys` copies the whole array when another version shares it, and most inserts and removals leave
        /// the separator as it was.
        func refreshKey(at index: Int) {
            let minimum = self.children[index].minimumKey
            if self.keys[index] != minimum {
                self.keys[index] = minimum
            }
        }

        /// The child at `index`, copied first if another map version shares it, so the caller may modify it.
        /// Call only on a node the caller itself holds uniquely.
        func uniqueChild(at index: Int) -> TreeNode {
            if !isKnownUniquelyReferenced(&self.children[index]) {
                self.children[index] = self.children[index].copy()
            }
            return self.children[index]
        }
    }
}
