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
