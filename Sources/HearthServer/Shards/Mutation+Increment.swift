import HearthCore
import HearthWire

extension Mutation {
    /// The delta when the mutation is exactly `{".sv": {"increment": delta}}` at its path, nothing else.
    ///
    /// Such increments commute with each other: two transactions incrementing one counter need not exclude each
    /// other, and the read view may show them in either order (it adds the deltas itself).
    var incrementDelta: LeafValue? {
        guard case .set(_, let value) = self, value.node.isEmpty, value.pendingPriorities.isEmpty,
            value.placeholders.count == 1, let placeholder = value.placeholders.first, placeholder.path.isRoot,
            !placeholder.isPriority, case .increment(let delta) = placeholder.value
        else { return nil }
        return delta
    }

    /// True for a set that puts data somewhere (not a delete): written below a leaf, it turns the leaf into an
    /// object.
    var addsData: Bool {
        guard case .set(_, let value) = self else { return false }
        return !value.node.isEmpty || value.hasServerValues
    }
}

extension Mutation {
    /// Whether the mutation holds server values (`.sv`) to resolve against the data it replaces.
    var hasServerValues: Bool {
        switch self {
        case .set(_, let value), .setPriority(_, let value): value.hasServerValues
        }
    }

    /// The first increment in `mutations` whose sum, against `tree` as it is before the write (where every one of a
    /// write's server values is resolved), no number can hold; nil when all fit. A write with one is refused whole.
    static func unrepresentableIncrement(_ mutations: [Mutation], in tree: Node) -> UnrepresentableIncrementError? {
        for mutation in mutations {
            let relative: Path?
            switch mutation {
            case .set(let path, let value):
                guard value.hasServerValues else { continue }
                relative = value.unrepresentableIncrement(existing: tree.node(at: path))
            case .setPriority(let path, let value):
                guard value.hasServerValues else { continue }
                relative = value.unrepresentableIncrement(existing: Node(priorityValue: tree.node(at: path).priority))
            }
            if let relative { return UnrepresentableIncrementError(path: mutation.path.appending(relative)) }
        }
        return nil
    }
}
