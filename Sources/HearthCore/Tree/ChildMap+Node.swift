extension ChildMap {
    /// One node of the persistent B+tree behind a `ChildMap` of more than `maximumFill` children.
    ///
    /// A node is one allocation: a header (`TreeNode.Header`: the subtree's count, the fill, an inner node's
    /// separator keys) and, in the same object, room for `capacity` entries — a leaf's `Entry`s (ascending by key) or
    /// an inner node's children (see `ChildMap+NodeStorage.swift`). Copying a node for a write therefore costs one
    /// allocation and a loop of initialisations, and freeing it one deallocation, where a node and its array were two
    /// of each. Inner nodes keep, in `Header.keys`, the smallest key below each child, so a lookup picks the last
    /// child whose smallest key is at or before the key it seeks; that array stays shared between a node and its
    /// copies until one of them writes a separator. Every node but the root holds between `minimumFill` and
    /// `maximumFill` entries, and all leaves sit at the same depth, which bounds the height by log₁₆(n) + 1 (at most
    /// six levels for a million children). The root is always an inner node: a map small enough for one leaf keeps
    /// its elements array directly (`ChildMap.Storage.elements`) and needs no node.
    ///
    /// The fan-out of 32 is a measured trade-off: persistent updates copy one node per level, so their cost grows with
    /// the fan-out, while lookups and iteration are dominated by cache misses and barely change between 32 and 64.
    ///
    /// Nodes are shared between map versions and treated as immutable while shared; a map mutates a node only after
    /// `isKnownUniquelyReferenced` proved that it holds the sole reference (see `uniqueChild(at:)` and
    /// `ChildMap.update`).
    ///
    /// `@unchecked Sendable` is safe because of that rule: a node's header and entries are written only through a
    /// reference that is the only one in existence, so no other thread can be reading them at the same time; once a
    /// second reference exists (the map was copied, possibly to another thread), the node is never written again. Its
    /// memory is reached through pointers into the object (no exclusivity checks are made on them, and none are
    /// needed, since no two accesses to a node can overlap), and every entry it initialised is deinitialised once, by
    /// the node's `deinit`, or moved out to another node or to the caller.
    final class TreeNode: @unchecked Sendable {
        /// The most entries (elements or children) a node holds; inserting one more splits it in two.
        static let maximumFill = 32
        /// The fewest entries a non-root node holds; removing below this borrows from or merges with a sibling.
        static let minimumFill = 16
        /// The room every node is made with: one entry past the maximum, which an insert takes before the node
        /// splits.
        static let capacity = maximumFill + 1

        /// What a node holds besides its entries.
        struct Header {
            /// The number of elements in this subtree.
            var count: Int
            /// The number of entries initialised: elements in a leaf, children in an inner node.
            var fill: Int
            /// Inner nodes only: the smallest key below each child, parallel to the children. Empty in a leaf.
            var keys: [Key]
            /// True for leaves, which hold elements; false for inner nodes, which hold children.
            let isLeaf: Bool
        }

        /// Never called: a node is made with its entries' room by `makeLeaf` or `makeInner`, which allocate the
        /// object through `ManagedBufferPointer` without an initialiser.
        private init() {}

        /// Deinitialises every entry the node holds (a leaf's elements or an inner node's children, each once) and
        /// its header; the object's one allocation is then freed with it.
        deinit {
            self.destroyContents()
        }

        /// A leaf holding copies of `elements`, which must be ascending and at most `capacity` long.
        static func leaf(copying elements: some Collection<Entry>) -> TreeNode {
            let leaf = Self.makeLeaf()
            for entry in elements { leaf.appendElement(entry) }
            return leaf
        }

        /// An inner node over `children`, which must be non-empty, in key order and at most `capacity` long.
        static func inner(_ children: some Collection<TreeNode>) -> TreeNode {
            precondition(children.count <= Self.capacity, "ChildMap: more children than a B+tree node holds")
            let node = Self.makeInner(keys: children.map(\.minimumKey))
            let target = node.childBase
            var (fill, count) = (0, 0)
            for child in children {
                (target + fill).initialize(to: child)
                fill += 1
                count += child.count
            }
            node.header.pointee.fill = fill
            node.header.pointee.count = count
            return node
        }

        /// A private copy of this node, for a map about to modify a node it shares with other versions: one allocation,
        /// each entry copied in code specialised for its type (a leaf's entries as bytes where they hold no reference,
        /// see `ChildMap+EntryCopy.swift`; an inner node's children), and an inner node's separator keys shared until
        /// written. O(fill).
        func copy() -> TreeNode {
            let fill = self.fill
            if self.isLeaf {
                let copy = Self.makeLeaf()
                ChildMap.Entry.initialize(copy.elementBase, copying: self.elementBase, count: fill)
                copy.header.pointee.fill = fill
                copy.header.pointee.count = fill
                return copy
            }
            let copy = Self.makeInner(keys: self.header.pointee.keys)
            let (source, target) = (self.childBase, copy.childBase)
            for index in 0..<fill { (target + index).initialize(to: source[index]) }
            copy.header.pointee.fill = fill
            copy.header.pointee.count = self.count
            return copy
        }

        /// True for leaves, which hold elements; false for inner nodes, which hold children.
        var isLeaf: Bool { self.header.pointee.isLeaf }

        /// The number of elements in this subtree.
        var count: Int {
            get { self.header.pointee.count }
            set { self.header.pointee.count = newValue }
        }

        /// The number of entries: elements in a leaf, children in an inner node.
        var fill: Int { self.header.pointee.fill }

        /// Inner nodes only: the smallest key below each child (a copy of the array, which shares its storage).
        var keys: [Key] { self.header.pointee.keys }

        /// A leaf's element at `index`, which must be below `fill`.
        func element(at index: Int) -> Entry { self.elementBase[index] }

        /// A leaf's elements, as an array (for a tree that shrank back to a small map).
        var elementArray: [Entry] {
            Array(UnsafeBufferPointer(start: self.elementBase, count: self.fill))
        }

        /// An inner node's child at `index`, which must be below `fill`.
        func child(at index: Int) -> TreeNode { self.childBase[index] }

        /// The smallest key in this subtree: a leaf's first element, or an inner node's first separator.
        var minimumKey: Key {
            guard self.fill > 0 else {
                preconditionFailure("ChildMap.TreeNode has no keys in state count=\(self.count) isLeaf=\(self.isLeaf)")
            }
            return self.isLeaf ? self.elementBase.pointee.key : self.header.pointee.keys[0]
        }

        /// In an inner node, the child whose subtree would hold `key`: the last child whose smallest key is at or
        /// before `key`, or the first child when `key` precedes them all. O(log fill).
        /// The key's bytes and integer value are read once for the whole search (`Key.Probe`).
        func childIndex(for key: Key) -> Int {
            self.header.pointee.keys.withUnsafeBufferPointer { keys in
                key.withProbe { probe in
                    var low = 0
                    var high = keys.count
                    while low < high {
                        let middle = (low + high) / 2
                        if probe?.precedes(keys[middle], probing: key) ?? (key < keys[middle]) {
                            high = middle
                        } else {
                            low = middle + 1
                        }
                    }
                    return Swift.max(low - 1, 0)
                }
            }
        }

        /// In a leaf, the node stored under `key`, or `nil`. O(log fill).
        func node(for key: Key) -> Node? {
            let elements = UnsafeBufferPointer(start: self.elementBase, count: self.fill)
            let index = ChildMap.lowerBound(key, in: elements)
            guard index < elements.count, elements[index].key == key else { return nil }
            return elements[index].node
        }

        /// In a leaf, the first position whose key is not less than `key`. O(log fill).
        func lowerBound(_ key: Key) -> Int {
            ChildMap.lowerBound(key, in: UnsafeBufferPointer(start: self.elementBase, count: self.fill))
        }

        /// Sets the separator at `index` to its child's smallest key. Only a key that changed is written: a write
        /// to `keys` copies the whole array when another version shares it, and most inserts and removals leave
        /// the separator as it was.
        func refreshKey(at index: Int) {
            let minimum = self.childBase[index].minimumKey
            if self.header.pointee.keys[index] != minimum {
                self.header.pointee.keys[index] = minimum
            }
        }

        /// The child at `index`, copied first if another map version shares it, so the caller may modify it.
        /// Call only on a node the caller itself holds uniquely.
        func uniqueChild(at index: Int) -> TreeNode {
            let slot = self.childBase + index
            if !isKnownUniquelyReferenced(&slot.pointee) {
                slot.pointee = slot.pointee.copy()
            }
            return slot.pointee
        }

        /// Runs `body` on the child at `index`, copied first if another map version shares it, so `body` may modify
        /// it. Call only on a node the caller itself holds uniquely. The child is lent without a retain (the
        /// slot holds it while `body` runs): `uniqueChild(at:)` returned it retained, a retain and a release for
        /// every inner level of a write's descent. `body` must not replace or remove the child at `index`.
        func withUniqueChild<Result>(at index: Int, _ body: (TreeNode) -> Result) -> Result {
            let slot = self.childBase + index
            if !isKnownUniquelyReferenced(&slot.pointee) {
                slot.pointee = slot.pointee.copy()
            }
            return Unmanaged.passUnretained(slot.pointee)._withUnsafeGuaranteedRef(body)
        }
    }
}
