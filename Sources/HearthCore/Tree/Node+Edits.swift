/// Applying a write's edits in one descent: the paths they share are walked once, not once per edit.
extension Node {
    /// Applies `edits` with exactly the result of applying them one after another, in order (`TreeEdit.apply`),
    /// editing in place what only this tree holds.
    ///
    /// Edits at paths none of which lies at or below another are applied in one descent: sorted by path, each node
    /// on the way is reached (and, when shared with another version, copied) once for all the edits below it, where
    /// applying them in turn walks from the root for each. Their order then cannot matter, with one exception the
    /// descent keeps: a node that deletes below it empty before other edits add data below it again is pruned and
    /// made anew in between, without its priority; a node with a priority and both kinds of edit below it therefore
    /// takes them in their order. Edits of which one lies at or below another (rare in a write) are applied in order.
    /// - Complexity: O(distinct nodes on the edits' paths × log n), plus a sort of the edits' paths.
    public mutating func apply(_ edits: [TreeEdit]) {
        guard edits.count > 1 else {
            if let only = edits.first { only.apply(to: &self) }
            return
        }
        guard let order = Self.descentOrder(of: edits) else {
            for edit in edits { edit.apply(to: &self) }
            return
        }
        // The descent reads the edits and their order through buffers: a closure capturing the arrays (each level's
        // `modifyChild` takes one) retained and released them at every node it passed. Nothing is written through
        // the buffer: no position is an increment.
        edits.withUnsafeBufferPointer { edits in
            order.withUnsafeBufferPointer { order in
                self.apply(Edits(mutating: edits), order[...], depth: 0, incrementing: TreeEdit.Increments())
            }
        }
    }

    /// Applies `edits` as `apply(_:)` does, where the edit at each position of `increments` is a bare increment left
    /// to the apply: a set of its delta, which becomes a set of the number found at its path, as the tree was before
    /// these edits, plus the delta, as Firebase adds them (`WriteValue.resolve`: two integers as `Int64`, a double
    /// on either side as a double, the delta itself over a missing or non-numeric value), both in the tree and in
    /// `edits`. Afterwards `edits` are the write's edits resolved whole.
    ///
    /// In the one descent, each increment reads the number where the descent reaches its path's last shared node,
    /// not from the root: edits none of which lies at or below another do not change what another's path holds.
    /// Edits of which one lies at or below another read every increment's number from the root first.
    /// The caller makes sure no sum overflows (`mayHoldHugeNumbers`); one that did would leave the number as it was.
    /// - Complexity: as `apply(_:)`, plus a lookup below the last shared node for each increment.
    public mutating func apply(_ edits: inout [TreeEdit], incrementing increments: TreeEdit.Increments) {
        guard !increments.isEmpty else { return self.apply(edits) }
        if edits.count > 1, let order = Self.descentOrder(of: edits) {
            edits.withUnsafeMutableBufferPointer { edits in
                order.withUnsafeBufferPointer { order in
                    self.apply(edits, order[...], depth: 0, incrementing: increments)
                }
            }
            return
        }
        for position in edits.indices where increments.contains(position) {
            edits[position] = self.resolvingIncrement(edits[position], below: 0)
        }
        for edit in edits { edit.apply(to: &self) }
    }

    /// The edits of one descent, read in place (see `apply(_:)`) and written only at the positions of the descent's
    /// increments (`apply(_:incrementing:)`); valid only while their array is borrowed.
    private typealias Edits = UnsafeMutableBufferPointer<TreeEdit>
    /// Positions in `Edits`, sorted by path: a run of the descent order.
    private typealias Order = Slice<UnsafeBufferPointer<Int>>

    /// The positions of `edits` sorted by path, or nil when one edit's path lies at or below another's.
    ///
    /// Two edits (each shard's part of a star: its flag and its count) take one comparison and no sort.
    private static func descentOrder(of edits: [TreeEdit]) -> [Int]? {
        if edits.count == 2 {
            let (first, second) = (edits[0].path, edits[1].path)
            if first.contains(second) || second.contains(first) { return nil }
            return second < first ? [1, 0] : [0, 1]
        }
        // The paths read once: each comparison would otherwise take a path out of its edit (and retain it).
        let paths = edits.map(\.path)
        let order = edits.indices.sorted { paths[$0] < paths[$1] }
        for (earlier, later) in zip(order, order.dropFirst()) where paths[earlier].contains(paths[later]) {
            return nil
        }
        return order
    }

    /// Applies the edits at `order` (positions in `edits`, sorted by path, none at or below another), which all
    /// lie below this node, at `depth` keys from the root.
    private mutating func apply(
        _ edits: Edits, _ order: Order, depth: Int, incrementing increments: TreeEdit.Increments
    ) {
        if order.count == 1, let only = order.first {
            return self.apply(edits, at: only, below: depth, incrementing: increments)
        }
        if self.hasPriority, Self.deletesAndAdds(edits, order) {
            // Deletes may empty this node, and so prune it with its priority, before an edit adds to it again.
            for position in order.sorted() { self.apply(edits, at: position, below: depth, incrementing: increments) }
            return
        }
        // Moved out of this node, so that `storage` is the only reference unless another version holds it.
        guard var storage = self.takeStorage() else {
            // Empty, or a leaf held inline: what the edits add becomes its children, and deletes change nothing.
            var map = ChildMap()
            Self.apply(edits, order, depth: depth, incrementing: increments, to: &map)
            if !map.isEmpty { self = Node(children: map) }
            return
        }
        guard isKnownUniquelyReferenced(&storage) else {
            guard case .children(var map) = storage.content else {
                self = Self.applying(edits, order, depth: depth, incrementing: increments, toLeaf: storage)
                return
            }
            // Shared with another version: edited in a copy of the map, which copies only what the edits reach.
            Self.apply(edits, order, depth: depth, incrementing: increments, to: &map)
            self = Node(children: map, priority: storage.priority)
            return
        }
        // The map moved out of the storage while it is edited, so the map's nodes are uniquely held.
        guard var map = storage.takeChildren() else {
            self = Self.applying(edits, order, depth: depth, incrementing: increments, toLeaf: storage)
            return
        }
        Self.apply(edits, order, depth: depth, incrementing: increments, to: &map)
        self.store(editedChildren: map, of: storage)
    }

    /// The edits at `order` applied to a leaf with a priority (`storage`): what they add becomes its children, which
    /// keep the priority, and deletes change nothing.
    private static func applying(
        _ edits: Edits, _ order: Order, depth: Int, incrementing increments: TreeEdit.Increments,
        toLeaf storage: Storage
    ) -> Node {
        var map = ChildMap()
        Self.apply(edits, order, depth: depth, incrementing: increments, to: &map)
        return map.isEmpty ? Node(storage: storage) : Node(children: map, priority: storage.priority)
    }

    /// Applies the edits at `order` to the children in `map`, one child at a time: each run of edits under the same
    /// key (the key at `depth`) in one visit of that child.
    private static func apply(
        _ edits: Edits, _ order: Order, depth: Int, incrementing increments: TreeEdit.Increments, to map: inout ChildMap
    ) {
        var start = order.startIndex
        while start < order.endIndex {
            let key = Self.key(at: depth, of: edits[order[start]])
            var end = order.index(after: start)
            while end < order.endIndex, Self.key(at: depth, of: edits[order[end]]) == key {
                end = order.index(after: end)
            }
            map.modifyChild(key) { $0.apply(edits, order[start..<end], depth: depth + 1, incrementing: increments) }
            start = end
        }
    }

    /// The key at `depth` on `edit`'s path, read where the edit lies: taking `edit.path` copies the path out of the
    /// edit (a retain and a release of its keys), and the descent reads a key of each edit at every level it passes.
    @inline(__always) private static func key(at depth: Int, of edit: borrowing TreeEdit) -> Key {
        switch edit {
        case .set(let path, _), .setPriority(let path, _): path.keys[depth]
        }
    }

    /// Whether this node has a priority, read without taking the priority out of its box (as `priority` does).
    private var hasPriority: Bool {
        guard case .stored(let storage) = self.representation else { return false }
        return storage.hasPriority
    }

    /// Applies the edit at `position` of `edits` to this node, which lies `depth` keys down its path: an increment
    /// (`increments`) resolved against what this node holds there first, and written back to `edits` resolved.
    private mutating func apply(
        _ edits: Edits, at position: Int, below depth: Int, incrementing increments: TreeEdit.Increments
    ) {
        guard increments.contains(position) else { return self.apply(edits[position], below: depth) }
        let resolved = self.resolvingIncrement(edits[position], below: depth)
        self.apply(resolved, below: depth)
        edits[position] = resolved
    }

    /// A bare increment left to the apply (a set of its delta at a path `depth` keys below this node) as the set of
    /// the value it takes against this node: the number there plus the delta (`WriteValue.resolve`).
    private func resolvingIncrement(_ edit: TreeEdit, below depth: Int) -> TreeEdit {
        // A programmer's invariant: `apply(_:incrementing:)` is handed a set of a number for each increment.
        guard case .set(let path, let node) = edit, let delta = node.leafValue else {
            preconditionFailure("an increment left to the apply is a set of its delta")
        }
        let current = self.node(at: path.keys[depth...]).leafValue
        return .set(path, Node(WriteValue.resolve(.increment(delta), current: current, now: 0)))
    }

    /// Applies `edit` to this node, which lies `depth` keys down its path.
    private mutating func apply(_ edit: TreeEdit, below depth: Int) {
        switch edit {
        case .set(let path, let node): self.set(node, at: path.keys[depth...])
        case .setPriority(let path, let priority):
            let keys = path.keys[depth...]
            let target = self.node(at: keys)
            if !target.isEmpty { self.set(target.withPriority(priority), at: keys) }
        }
    }

    /// Whether the edits at `order` both delete (a set of nothing) and set something.
    private static func deletesAndAdds(_ edits: Edits, _ order: Order) -> Bool {
        var (deletes, adds) = (false, false)
        for position in order {
            guard case .set(_, let node) = edits[position] else { continue }
            if node.isEmpty { deletes = true } else { adds = true }
        }
        return deletes && adds
    }
}
