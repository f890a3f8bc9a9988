/// Moving a node's parts out of it, so the write descent edits what it holds without a retain and a release per
/// level: binding `case .stored(var storage) = self.representation` copied the reference (a retain) before the
/// node let its own go (a release), and `case .children(var map) = storage.content` the map alike.
extension Node {
    /// Moves this node's storage out, leaving the node empty; nil, with the node unchanged, when it has none (empty,
    /// or a leaf held inline). The reference is moved, not copied: the storage keeps its count, so the caller's
    /// `isKnownUniquelyReferenced` sees whether another version holds it.
    @inline(__always) mutating func takeStorage() -> Storage? {
        var taken = Representation.empty
        swap(&taken, &self.representation)
        switch consume taken {
        case .stored(let storage):
            return storage
        case let other:
            self.representation = other
            return nil
        }
    }
}

extension Node.Storage {
    /// Moves the children out of this storage, which the caller holds uniquely, leaving an empty map in their place
    /// (`Node.store(editedChildren:of:)` puts them back); nil, with the content unchanged, for a leaf.
    @inline(__always) func takeChildren() -> ChildMap? {
        var taken = Node.Content.children(ChildMap())
        swap(&taken, &self.content)
        switch consume taken {
        case .children(let map):
            return map
        case let other:
            self.content = other
            return nil
        }
    }
}

extension ChildMap {
    /// Moves this map's storage out, leaving the map empty: the array or tree root keeps its count, so it is copied
    /// only when another version shares it.
    @inline(__always) mutating func takeStorage() -> Storage {
        var taken = Storage.elements([])
        swap(&taken, &self.storage)
        return taken
    }
}
