/// A B+tree node's memory: its header and its entries in the node's own allocation, reached through pointers.
///
/// The object is allocated by `ManagedBufferPointer` with room for `capacity` entries after its header: `Entry`s for
/// a leaf, `TreeNode` references for an inner node. The class declares no stored properties (the buffer's header is
/// its state), so both layouts share one class. Methods named for elements (`appendElement`, `insertElement`,
/// `removeElement`) are for leaves and those named for children (`insertChild`, `removeChild`, `childCount`) for
/// inner nodes, unchecked; the rest read `isLeaf` before they type the entries.
///
/// The rule every caller keeps: entries `0..<fill` are initialised and the rest are not; a method that adds or
/// removes entries adjusts `fill` in the same call (and a leaf's `count`; an inner node's caller adjusts its count),
/// except `moveEntries`, whose caller sets both nodes' `fill`, so `deinit` deinitialises each initialised entry
/// exactly once. No method writes past `capacity` entries: each that adds checks it (a broken fill invariant traps
/// instead of overrunning the allocation). The pointers are valid while the node is alive; they are used only
/// inside the node's own methods or by callers holding the node (where `self` is kept alive) and never stored.
extension ChildMap.TreeNode {
    /// A leaf's memory: the header, then `Entry`s.
    private typealias LeafLayout = ManagedBufferPointer<Header, ChildMap.Entry>
    /// An inner node's memory: the header, then children.
    private typealias InnerLayout = ManagedBufferPointer<Header, ChildMap.TreeNode>

    /// An empty leaf with room for `capacity` elements.
    static func makeLeaf() -> ChildMap.TreeNode {
        let layout = LeafLayout(bufferClass: ChildMap.TreeNode.self, minimumCapacity: Self.capacity) { _, _ in
            Header(count: 0, fill: 0, keys: [], isLeaf: true)
        }
        return unsafeDowncast(layout.buffer, to: ChildMap.TreeNode.self)
    }

    /// An inner node with no children yet, room for `capacity`, and `keys` as its separators (the caller adds the
    /// children they name).
    static func makeInner(keys: [Key]) -> ChildMap.TreeNode {
        let layout = InnerLayout(bufferClass: ChildMap.TreeNode.self, minimumCapacity: Self.capacity) { _, _ in
            Header(count: 0, fill: 0, keys: keys, isLeaf: false)
        }
        return unsafeDowncast(layout.buffer, to: ChildMap.TreeNode.self)
    }

    /// The node's header. The same place in both layouts (it depends on `Header` alone).
    var header: UnsafeMutablePointer<Header> {
        LeafLayout(unsafeBufferObject: self).withUnsafeMutablePointerToHeader { $0 }
    }

    /// A leaf's first element; entries `0..<fill` are initialised.
    var elementBase: UnsafeMutablePointer<ChildMap.Entry> {
        LeafLayout(unsafeBufferObject: self).withUnsafeMutablePointerToElements { $0 }
    }

    /// An inner node's first child; entries `0..<fill` are initialised.
    var childBase: UnsafeMutablePointer<ChildMap.TreeNode> {
        InnerLayout(unsafeBufferObject: self).withUnsafeMutablePointerToElements { $0 }
    }

    /// Deinitialises the entries `0..<fill` and the header, each once (the node's `deinit`). One entry at a time, so
    /// each is destroyed by code specialised for its type rather than the runtime's generic array destroy, and a
    /// leaf's entries that hold no reference not at all (`ChildMap+EntryCopy.swift`).
    func destroyContents() {
        let fill = self.fill
        if self.isLeaf {
            ChildMap.Entry.deinitialize(self.elementBase, count: fill)
        } else {
            let children = self.childBase
            for index in 0..<fill { (children + index).deinitialize(count: 1) }
        }
        self.header.deinitialize(count: 1)
    }

    /// Adds `entry` after a leaf's last element; the leaf must have room.
    func appendElement(_ entry: ChildMap.Entry) {
        let fill = self.fill
        precondition(fill < Self.capacity, "ChildMap: a B+tree leaf is full")
        (self.elementBase + fill).initialize(to: entry)
        self.header.pointee.fill = fill + 1
        self.header.pointee.count += 1
    }

    /// Inserts `entry` into a leaf at `index` (at most `fill`), moving the elements after it up; the leaf must have
    /// room.
    func insertElement(_ entry: ChildMap.Entry, at index: Int) {
        let fill = self.fill
        precondition(fill < Self.capacity, "ChildMap: a B+tree leaf is full")
        let elements = self.elementBase
        (elements + index + 1).moveInitialize(from: elements + index, count: fill - index)
        (elements + index).initialize(to: entry)
        self.header.pointee.fill = fill + 1
        self.header.pointee.count += 1
    }

    /// Removes and returns a leaf's element at `index`, moving the elements after it down.
    func removeElement(at index: Int) -> ChildMap.Entry {
        let fill = self.fill
        let elements = self.elementBase
        let entry = (elements + index).move()
        (elements + index).moveInitialize(from: elements + index + 1, count: fill - index - 1)
        self.header.pointee.fill = fill - 1
        self.header.pointee.count -= 1
        return entry
    }

    /// Inserts `child` into an inner node at `index` (at most `fill`), with its smallest key as the separator; the
    /// node must have room. The node's count stays: the child's elements came from its siblings (a split).
    func insertChild(_ child: ChildMap.TreeNode, at index: Int) {
        let fill = self.fill
        precondition(fill < Self.capacity, "ChildMap: a B+tree inner node is full")
        let children = self.childBase
        self.header.pointee.keys.insert(child.minimumKey, at: index)
        (children + index + 1).moveInitialize(from: children + index, count: fill - index)
        (children + index).initialize(to: child)
        self.header.pointee.fill = fill + 1
    }

    /// Removes an inner node's child at `index` and its separator, and releases the child. The node's count stays:
    /// the child's elements went to a sibling (a merge).
    func removeChild(at index: Int) {
        let fill = self.fill
        let children = self.childBase
        _ = (children + index).move()
        (children + index).moveInitialize(from: children + index + 1, count: fill - index - 1)
        self.header.pointee.fill = fill - 1
        self.header.pointee.keys.remove(at: index)
    }

    /// Moves `count` entries of `source` starting at `sourceIndex` to `target` at `targetIndex`, for nodes of one kind
    /// (or one node, whose ranges may then overlap). Neither node's `fill` changes: the caller makes the moved-from
    /// range uninitialised and the moved-to range initialised in its own bookkeeping.
    static func moveEntries(
        from source: ChildMap.TreeNode,
        at sourceIndex: Int,
        to target: ChildMap.TreeNode,
        at targetIndex: Int,
        count: Int
    ) {
        precondition(targetIndex + count <= Self.capacity, "ChildMap: moved past a B+tree node's room")
        if source.isLeaf {
            (target.elementBase + targetIndex).moveInitialize(from: source.elementBase + sourceIndex, count: count)
        } else {
            (target.childBase + targetIndex).moveInitialize(from: source.childBase + sourceIndex, count: count)
        }
    }

    /// Copies every entry of `other` (a node of the same kind, which may be shared) after this node's last one,
    /// with `other`'s separators and count; this node must have room.
    func append(copiesOf other: ChildMap.TreeNode) {
        let (fill, otherFill) = (self.fill, other.fill)
        precondition(fill + otherFill <= Self.capacity, "ChildMap: joined B+tree nodes overrun one node's room")
        if self.isLeaf {
            ChildMap.Entry.initialize(self.elementBase + fill, copying: other.elementBase, count: otherFill)
        } else {
            let (source, target) = (other.childBase, self.childBase + fill)
            for index in 0..<otherFill { (target + index).initialize(to: source[index]) }
            self.header.pointee.keys.append(contentsOf: other.header.pointee.keys)
        }
        self.header.pointee.fill = fill + otherFill
        self.header.pointee.count += other.count
    }

    /// The sum of the counts of an inner node's children in `range`.
    func childCount(in range: Range<Int>) -> Int {
        let children = self.childBase
        var total = 0
        for index in range { total += children[index].count }
        return total
    }
}
