/// Writing into the persistent tree: every update copies only the path from the root to the change.
extension Node {
    /// This node with `key` replaced by `child` (removed when `child` is empty).
    ///
    /// Follows Firebase's rules: writing a child into a leaf turns it into a children node that keeps the leaf's
    /// priority; removing the last child makes the node empty (and drops its priority).
    /// - Complexity: O(log n) in the number of children.
    public func updatingChild(_ key: Key, to child: Node) -> Node {
        switch self.storage?.content {
        case .children(let map):
            let updated = map.updating(key, with: child.isEmpty ? nil : child)
            return Node(children: updated, priority: self.priority)
        case .leaf, nil:
            if child.isEmpty { return self }
            return Node(children: ChildMap().updating(key, with: child), priority: self.priority)
        }
    }

    /// This node with the node at `path` replaced by `value` (removed when `value` is empty).
    /// - Complexity: O(depth × log n).
    public func setting(_ value: Node, at path: Path) -> Node {
        self.setting(value, at: path.keys[...])
    }

    private func setting(_ value: Node, at keys: ArraySlice<Key>) -> Node {
        guard let first = keys.first else { return value }
        let child = self.child(first)
        let updatedChild = child.setting(value, at: keys.dropFirst())
        if updatedChild.isIdentical(to: child) { return self }
        return self.updatingChild(first, to: updatedChild)
    }

    /// This node with the priority of the node at `path` replaced; nothing changes where that node is empty.
    public func settingPriority(_ priority: Priority?, at path: Path) -> Node {
        let target = self.node(at: path)
        if target.isEmpty { return self }
        return self.setting(target.withPriority(priority), at: path)
    }
}

/// Writing in place: the same results as `setting`, but nodes this tree holds the only reference to are edited
/// where they lie instead of copied. A tree that is never shared between writes (a shard's) copies nothing; one
/// published after every write (the read view's) copies each path once and edits it in place after that.
extension Node {
    /// Replaces the node at `path` with `value` (removes it when `value` is empty), as `setting(_:at:)` does.
    /// - Complexity: O(depth × log n); nodes shared with other versions are copied, the others edited in place.
    public mutating func set(_ value: Node, at path: Path) {
        self.set(value, at: path.keys[...])
    }

    /// Replaces the priority of the node at `path`, as `settingPriority(_:at:)` does.
    public mutating func setPriority(_ priority: Priority?, at path: Path) {
        let target = self.node(at: path)
        if target.isEmpty { return }
        self.set(target.withPriority(priority), at: path)
    }

    /// Replaces the node at the path of `keys` with `value`, as `set(_:at:)` does.
    ///
    /// The descent reads the value and the keys through pointers, valid for the one call that borrows them: a
    /// closure capturing them (each level's `modifyChild` takes one) retained and released both at every node it
    /// passed.
    mutating func set(_ value: Node, at keys: ArraySlice<Key>) {
        withUnsafePointer(to: value) { value in
            keys.withUnsafeBufferPointer { keys in self.set(value, keys[...]) }
        }
    }

    /// `set(_:at:)` with the value and the remaining keys read in place (see above).
    private mutating func set(_ value: UnsafePointer<Node>, _ keys: Slice<UnsafeBufferPointer<Key>>) {
        guard let first = keys.first else {
            self = value.pointee
            return
        }
        // Moved out of this node, so that `storage` is the only reference unless another version holds it.
        guard var storage = self.takeStorage() else {
            self = self.setting(value.pointee, at: ArraySlice(keys))
            return
        }
        guard isKnownUniquelyReferenced(&storage) else {
            guard case .children(var map) = storage.content else {
                self = Node(storage: storage).setting(value.pointee, at: ArraySlice(keys))
                return
            }
            // Shared with another version: the edit goes into a copy of the map, which copies only what it reaches
            // and looks each key up once (building the node anew from the old one's lookups looked each up twice).
            map.modifyChild(first) { $0.set(value, keys.dropFirst()) }
            self = Node(children: map, priority: storage.priority)
            return
        }
        // The map moved out of the storage while it is edited, so the map's nodes are uniquely held.
        guard var map = storage.takeChildren() else {
            // A leaf with a priority: what the edit adds becomes its children.
            self = Node(storage: storage).setting(value.pointee, at: ArraySlice(keys))
            return
        }
        map.modifyChild(first) { $0.set(value, keys.dropFirst()) }
        self.store(editedChildren: map, of: storage)
    }

    /// Becomes `map`, the children of `storage` edited while this node held no reference to it (its content left
    /// empty meanwhile): nothing when the edits emptied it, else `storage` again with the map back in, or fresh
    /// storage when `storage` has a computed hash (which cannot be cleared).
    @inline(__always) mutating func store(editedChildren map: ChildMap, of storage: Storage) {
        if map.isEmpty {
            self = .empty
        } else if !Self.hasCachedHash(storage) {
            storage.content = .children(map)
            self.representation = .stored(storage)
        } else {
            self = Node(storage: Storage(content: .children(map), priority: storage.priority))
        }
    }
}
