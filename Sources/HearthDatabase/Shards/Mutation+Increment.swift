package import HearthCore
import HearthWire

extension Mutation {
    /// The delta when the mutation is exactly `{".sv": {"increment": delta}}` at its path, nothing else.
    ///
    /// Such increments commute with each other: two transactions incrementing one counter need not exclude each
    /// other, and the read view may show them in either order (it adds the deltas itself).
    package var incrementDelta: LeafValue? {
        guard case .set(_, let value) = self else { return nil }
        return value.incrementDelta
    }

    /// The largest delta of an increment that commutes with others of its counter. A larger one holds its
    /// counter alone while prepared (`ShardLockTable`), so that whatever increments are prepared beside another
    /// are small enough that a shard can tell, from the counter's current value, that no order of them overflows.
    static let commutingDeltaLimit = 1e300

    /// `incrementDelta` when it commutes with other increments of its counter: its magnitude is below
    /// `commutingDeltaLimit`.
    var commutingIncrementDelta: LeafValue? {
        self.incrementDelta.flatMap(Self.commuting)
    }

    /// `delta` when an increment by it commutes with others of its counter (`commutingIncrementDelta`), else nil.
    private static func commuting(_ delta: LeafValue) -> LeafValue? {
        switch delta {
        case .int: return delta
        case .double(let number): return abs(number) < Self.commutingDeltaLimit ? delta : nil
        case .string, .bool: return nil
        }
    }

    /// How many bytes of JSON text a set keeps from its source (`WriteValue.sourceJSON`); 0 for a priority or a set
    /// without one. Borrowing: read where the mutation is held, where a match on a copy of it (or a computed
    /// property's) retained its path and every part of its value first.
    borrowing func sourceJSONByteCount() -> Int {
        switch self {
        case .set(_, let value): value.sourceJSON?.count ?? 0
        case .setPriority: 0
        }
    }

    /// True for a set that puts data somewhere (not a delete): written below a leaf, it turns the leaf into an
    /// object.
    borrowing func addsData() -> Bool {
        switch self {
        case .set(_, let value): !value.node.isEmpty || value.hasServerValues
        case .setPriority: false
        }
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
        Self.resolving(mutations, in: tree, now: now, deferringIncrements: false).map(\.edits)
    }

    /// `resolving(_:in:now:)`, except that with `deferring` set, each bare increment that commutes
    /// (`commutingIncrementDelta`, among the first `TreeEdit.Increments.capacity` mutations) is left to the apply
    /// (`ShardEdits`), unread and unchecked: the caller sets it only when no sum can overflow
    /// (`Node.mayHoldHugeNumbers` down) and applies the edits to `tree` before anything else changes it.
    /// - Complexity: one lookup from the root for each mutation holding server values but those left to the apply.
    static func resolving(
        _ mutations: [Mutation], in tree: Node, now: Int64, deferringIncrements deferring: Bool
    ) -> Result<ShardEdits, UnrepresentableIncrementError> {
        var resolved = ShardEdits(edits: [])
        resolved.edits.reserveCapacity(mutations.count)
        // Each read where the array's buffer holds it, by one borrowing step: the array's subscript copied each out
        // whole first (its path and every part of its value retained, then released), as did iterating or matching
        // on a copy; three steps, one for its base, its check and its resolution, read it out up to three times.
        let failure = mutations.withUnsafeBufferPointer { mutations -> UnrepresentableIncrementError? in
            for index in mutations.indices {
                let defers = deferring && index < TreeEdit.Increments.capacity
                switch mutations[index].resolvedChecked(in: tree, now: now, deferringIncrement: defers) {
                case .success(let mutation):
                    if mutation.deferred { resolved.increments.insert(index) }
                    resolved.edits.append(mutation.edit)
                case .failure(let error): return error
                }
            }
            return nil
        }
        if let failure { return .failure(failure) }
        return .success(resolved)
    }

    /// The mutation resolved against `tree` as it is before the write (`resolved(against: serverValueBase(in:))`),
    /// or the error of its first increment whose sum no number can hold: the one step `resolving` reads each
    /// mutation through.
    /// One match binds the path and value for the base, the check and the resolution: a match per step (each a
    /// borrowing function of its own) copied the mutation's payload out once for each (its path and every part of
    /// its value retained, then released).
    /// With `deferring` set, a bare increment that commutes is not read: it comes back as the set of its delta at its
    /// path, `deferred`, for the apply to resolve (`ShardEdits`).
    private borrowing func resolvedChecked(
        in tree: Node, now: Int64, deferringIncrement deferring: Bool
    ) -> Result<(edit: ResolvedMutation, deferred: Bool), UnrepresentableIncrementError> {
        switch self {
        case .set(let path, let value):
            guard value.hasServerValues else { return .success((.set(path, value.node), false)) }
            if deferring, let delta = value.incrementDelta.flatMap(Self.commuting) {
                return .success((.set(path, Node(delta)), true))
            }
            let base = tree.node(at: path)
            if let error = Self.unrepresentableIncrement(of: value, at: path, existing: base) { return .failure(error) }
            return .success((.set(path, value.resolved(existing: base, now: now)), false))
        case .setPriority(let path, let value):
            guard value.hasServerValues else {
                return .success((.setPriority(path, ResolvedMutation.priority(from: value.node)), false))
            }
            let base = Node(priorityValue: tree.node(at: path).priority)
            if let error = Self.unrepresentableIncrement(of: value, at: path, existing: base) { return .failure(error) }
            let resolved = value.resolved(existing: base, now: now)
            return .success((.setPriority(path, ResolvedMutation.priority(from: resolved)), false))
        }
    }

    /// The error for the first increment of `value` (written at `path`) whose sum with `base` no number can hold,
    /// naming the increment's own path; nil when every one fits.
    private static func unrepresentableIncrement(
        of value: borrowing WriteValue, at path: borrowing Path, existing base: Node
    ) -> UnrepresentableIncrementError? {
        guard let offset = value.unrepresentableIncrement(existing: base) else { return nil }
        return UnrepresentableIncrementError(path: path.appending(offset))
    }

    /// What the mutation's server values resolve against in `tree` as it is before the write: the node it replaces
    /// (for a priority, that node's priority as a node); nil when it holds none, and is written as it is.
    borrowing func serverValueBase(in tree: Node) -> Node? {
        switch self {
        case .set(let path, let value):
            value.hasServerValues ? tree.node(at: path) : nil
        case .setPriority(let path, let value):
            value.hasServerValues ? Node(priorityValue: tree.node(at: path).priority) : nil
        }
    }

    /// The mutation with its server values resolved against `base` (`serverValueBase(in:)`: nil when it holds none,
    /// so only a server value reads what it replaces and a plain value is written as it is).
    borrowing func resolved(against base: Node?, now: Int64) -> ResolvedMutation {
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

extension WriteValue {
    /// The delta when the value is exactly `{".sv": {"increment": delta}}`, nothing else (`Mutation.incrementDelta`).
    var incrementDelta: LeafValue? {
        guard self.node.isEmpty, self.pendingPriorities.isEmpty, self.placeholders.count == 1,
            let placeholder = self.placeholders.first, placeholder.path.isRoot, !placeholder.isPriority,
            case .increment(let delta) = placeholder.value
        else { return nil }
        return delta
    }
}
