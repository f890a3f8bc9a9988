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

    /// How many bytes of JSON text a set keeps from its source (`WriteValue.sourceJSON`); 0 for a priority or a set
    /// without one. Read in place, where a match outside the enum copied the whole value out.
    var sourceJSONByteCount: Int {
        guard case .set(_, let value) = self else { return 0 }
        return value.sourceJSON?.count ?? 0
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
        // By index: each mutation is read where the array holds it (iterated, each was copied out whole).
        for index in mutations.indices {
            let base = mutations[index].serverValueBase(in: tree)
            if let base {
                switch mutations[index] {
                case .set(let path, let value), .setPriority(let path, let value):
                    if let relative = value.unrepresentableIncrement(existing: base) {
                        return .failure(UnrepresentableIncrementError(path: path.appending(relative)))
                    }
                }
            }
            resolved.append(mutations[index].resolved(against: base, now: now))
        }
        return .success(resolved)
    }

    /// What the mutation's server values resolve against in `tree` as it is before the write: the node it replaces
    /// (for a priority, that node's priority as a node); nil when it holds none, and is written as it is.
    func serverValueBase(in tree: Node) -> Node? {
        switch self {
        case .set(let path, let value):
            value.hasServerValues ? tree.node(at: path) : nil
        case .setPriority(let path, let value):
            value.hasServerValues ? Node(priorityValue: tree.node(at: path).priority) : nil
        }
    }

    /// The mutation with its server values resolved against `base` (`serverValueBase(in:)`: nil when it holds none,
    /// so only a server value reads what it replaces and a plain value is written as it is).
    func resolved(against base: Node?, now: Int64) -> ResolvedMutation {
        switch self {
        case .set(let path, let value):
            .set(path, base.map { value.resolved(existing: $0, now: now) } ?? value.node)
        case .setPriority(let path, let value):
            .setPriority(
                path, ResolvedMutation.priority(from: base.map { value.resolved(existing: $0, now: now) } ?? value.node)
            )
        }
    }
}
