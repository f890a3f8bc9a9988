package import HearthCore

/// Data the client holds for a subtree, with which parts of it are known wholly.
///
/// The server tells a client about the locations it listens to; a write tells it about the locations it sets. What
/// lies in between is unknown, and an unknown child must never be shown as deleted. `completeness` records, per
/// location, whether `node` holds all of it: Firebase's `CacheNode` with its "fully initialised" flag, extended to
/// every depth so a partially known location can still show its wholly known children.
package struct KnownTree: Sendable, Equatable {
    /// The data known; unknown parts are absent.
    package var node: Node
    package var completeness: Completeness

    package init(node: Node, completeness: Completeness) {
        self.node = node
        self.completeness = completeness
    }

    /// Nothing known.
    package static let unknown = KnownTree(node: .empty, completeness: .partial([:]))

    /// `node`, known wholly.
    package static func complete(_ node: Node) -> KnownTree {
        KnownTree(node: node, completeness: .complete)
    }

    /// True when the data at `path` is known wholly.
    package func isComplete(at path: Path) -> Bool {
        self.completeness.isComplete(at: path.keys[...])
    }

    /// What is known at `path`, relative to it.
    package func subtree(at path: Path) -> KnownTree {
        KnownTree(node: self.node.node(at: path), completeness: self.completeness.subtree(at: path.keys[...]))
    }

    /// Records that the data at `path` is wholly `value`.
    package mutating func set(_ value: Node, at path: Path) {
        self.node.set(value, at: path)
        self.completeness.markComplete(at: path.keys[...])
    }

    /// Replaces what is known at `path` with `tree` (completeness included).
    package mutating func replace(at path: Path, with tree: KnownTree) {
        self.node.set(tree.node, at: path)
        self.completeness.replace(at: path.keys[...], with: tree.completeness)
    }

    /// The node of the children known wholly: the whole node when it is complete, else only those children (a
    /// partially known child is left out, since showing it would show its unknown parts as missing).
    package var completeChildren: Node {
        guard case .partial(let children) = self.completeness else { return self.node }
        var kept = ChildMap()
        for (key, state) in children where state == .complete {
            kept.update(key, with: self.node.child(key))
        }
        return Node(children: kept)
    }
}

/// Which parts of a subtree a `KnownTree` holds wholly: the whole of it, or some of its children (a child missing
/// from the map is unknown).
package indirect enum Completeness: Sendable, Equatable {
    case complete
    case partial([Key: Completeness])

    func isComplete(at keys: ArraySlice<Key>) -> Bool {
        switch self {
        case .complete:
            return true
        case .partial(let children):
            guard let first = keys.first, let child = children[first] else { return false }
            return child.isComplete(at: keys.dropFirst())
        }
    }

    func subtree(at keys: ArraySlice<Key>) -> Completeness {
        switch self {
        case .complete:
            return .complete
        case .partial(let children):
            guard let first = keys.first else { return self }
            return children[first]?.subtree(at: keys.dropFirst()) ?? .partial([:])
        }
    }

    mutating func markComplete(at keys: ArraySlice<Key>) {
        self.replace(at: keys, with: .complete)
    }

    mutating func replace(at keys: ArraySlice<Key>, with replacement: Completeness) {
        guard let first = keys.first else {
            self = replacement
            return
        }
        guard case .partial(var children) = self else {
            if replacement == .complete { return }
            // Knowing less below a complete location: its other children stay complete.
            preconditionFailure("Completeness.replace narrowing a complete location in state \(keys)")
        }
        var child = children[first] ?? .partial([:])
        child.replace(at: keys.dropFirst(), with: replacement)
        children[first] = child
        self = .partial(children)
    }
}
