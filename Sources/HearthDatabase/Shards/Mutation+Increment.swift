package import HearthCore
import HearthWire

extension Mutation {
    /// The delta when the mutation is exactly `{".sv": {"increment": delta}}` at its path, nothing else.
    ///
    /// Such increments commute with each other: two transactions incrementing one counter need not exclude each
    /// other, and the read view may show them in either order (it adds the deltas itself).
    package var incrementDelta: LeafValue? {
        guard case .set(_, let value) = self, value.node.isEmpty, value.pendingPriorities.isEmpty,
            value.placeholders.count == 1, let placeholder = value.placeholders.first, placeholder.path.isRoot,
            !placeholder.isPriority, case .increment(let delta) = placeholder.value
        else { return nil }
        return delta
    }

    /// The largest delta of an increment that commutes with others of its counter. A larger one holds its
    /// counter alone while prepared (`ShardLockTable`), so that whatever increments are prepared beside another
    /// are small enough that a shard can tell, from the counter's current value, that no order of them overflows.
    static let commutingDeltaLimit = 1e300

    /// `incrementDelta` when it commutes with other increments of its counter: its magnitude is below
    /// `commutingDeltaLimit`.
    var commutingIncrementDelta: LeafValue? {
        guard let delta = self.incrementDelta else { return nil }
        switch delta {
        case .int: return delta
        case .double(let number): return abs(number) < Self.commutingDeltaLimit ? delta : nil
        case .string, .bool: return nil
        }
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
        guard mutations.contains(where: \.hasServerValues),
            case .failure(let error) = Self.resolving(mutations, in: tree, now: 0)
        else { return nil }
        return error
    }

    /// `mutations` with their server values resolved against `tree` as it is before the write (every one of a write's
    /// server values is), reading the node each replaces once, for the overflow check and the value alike: the
    /// first increment whose sum no number can hold fails them all (the write is refused whole).
    /// - Complexity: one lookup from the root for each mutation holding server values; none for the others.
    static func resolving(
        _ mutations: [Mutation], in tree: Node, now: Int64
    ) -> Result<[ResolvedMutation], UnrepresentableIncrementError> {
        var resolved: [ResolvedMutation] = []
        resolved.reserveCapacity(mutations.count)
        for mutation in mutations {
            switch mutation {
            case .set(let path, let value):
                guard value.hasServerValues else {
                    resolved.append(.set(path, value.node))
                    continue
                }
                let existing = tree.node(at: path)
                if let relative = value.unrepresentableIncrement(existing: existing) {
                    return .failure(UnrepresentableIncrementError(path: path.appending(relative)))
                }
                resolved.append(.set(path, value.resolved(existing: existing, now: now)))
            case .setPriority(let path, let value):
                guard value.hasServerValues else {
                    resolved.append(.setPriority(path, ResolvedMutation.priority(from: value.node)))
                    continue
                }
                let existing = Node(priorityValue: tree.node(at: path).priority)
                if let relative = value.unrepresentableIncrement(existing: existing) {
                    return .failure(UnrepresentableIncrementError(path: path.appending(relative)))
                }
                let node = value.resolved(existing: existing, now: now)
                resolved.append(.setPriority(path, ResolvedMutation.priority(from: node)))
            }
        }
        return .success(resolved)
    }
}
