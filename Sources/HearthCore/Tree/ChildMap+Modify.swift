/// Editing one child where it lies, so a tree that holds the only reference to its nodes can be written without
/// copying them.
extension ChildMap {
    /// Runs `body` on the child named `key` in place (an absent child starts as `.empty`), then stores what `body`
    /// left there: a child left empty is removed.
    ///
    /// Arrays and tree nodes this map shares with other versions are copied first, exactly as `update` does; the
    /// child itself is handed to `body` with no other reference from this map, so `body` can edit it in place too.
    /// - Complexity: O(log n) plus the cost of `body`.
    mutating func modifyChild(_ key: Key, _ body: (inout Node) -> Void) {
        // The edit runs in a function of its own, so that its local reference to this map's storage is gone before
        // an insert or remove here checks that storage for uniqueness.
        switch self.modifyExistingChild(key, body) {
        case .absent:
            var child = Node.empty
            body(&child)
            if !child.isEmpty { _ = self.insert(key, child) }
        case .emptied:
            _ = self.removeExisting(key)
        case .kept:
            break
        }
    }

    /// Runs `body` on the child named `key` where it lies, if there is one.
    private mutating func modifyExistingChild(_ key: Key, _ body: (inout Node) -> Void) -> TreeNode.ModifyOutcome {
        switch self.storage {
        case .elements(var elements):
            // Drop this map's reference first, so the array is copied only when another version shares it.
            self.storage = .elements([])
            defer { self.storage = .elements(elements) }
            let index = Self.lowerBound(key, in: elements)
            guard index < elements.count, elements[index].key == key else { return .absent }
            body(&elements[index].node)
            return elements[index].node.isEmpty ? .emptied : .kept
        case .tree(var root):
            self.storage = .elements([])
            if !isKnownUniquelyReferenced(&root) {
                root = root.copy()
            }
            defer { self.storage = .tree(root) }
            return root.modifyChild(key, body)
        }
    }
}

extension ChildMap.TreeNode {
    /// What `modifyChild` found.
    enum ModifyOutcome {
        /// No element has the key; `body` did not run.
        case absent
        /// `body` ran and left a non-empty child.
        case kept
        /// `body` ran and left the child empty: the caller must remove it.
        case emptied
    }

    /// Runs `body` on the element named `key` in this subtree, which the caller holds uniquely. Counts and separator
    /// keys stay as they are, so a child that `body` empties is left for the caller to remove.
    func modifyChild(_ key: Key, _ body: (inout Node) -> Void) -> ModifyOutcome {
        if self.isLeaf {
            let index = ChildMap.lowerBound(key, in: self.elements)
            guard index < self.elements.count, self.elements[index].key == key else { return .absent }
            body(&self.elements[index].node)
            return self.elements[index].node.isEmpty ? .emptied : .kept
        }
        return self.uniqueChild(at: self.childIndex(for: key)).modifyChild(key, body)
    }
}
