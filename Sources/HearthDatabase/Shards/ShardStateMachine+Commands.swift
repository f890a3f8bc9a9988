public import HearthCore
public import HearthWire

/// What a leader's command did: appended an entry, or why it appended nothing.
public enum ShardDecision: Sendable {
    /// The entry to persist, and what applying it changed.
    case appended(ShardEntry, ShardApplied)
    /// A prepared transaction holds an overlapping path: try again once a transaction finishes here.
    case blocked
    /// The compare-and-set failed against every entry up to the shard's `lastIndex`; nothing was appended.
    case conditionFailed(current: Node)
    /// The write would land below a leaf on the spine, which every shard keeps a copy of: it must run as a
    /// transaction over every shard so that all the copies change together.
    case needsAllShards
    /// The anchor already logged this transaction's decision (the first one logged wins); nothing was appended.
    case alreadyDecided(commit: Bool)
    /// The transaction holds no prepared part here (it finished already), or there is nothing to forget.
    case nothingToDo
    /// The write (or the transaction's part) names an origin this shard already applied: it is the same write sent
    /// again, answered without being applied (`WriteSessions`); nothing was appended.
    case duplicate
    /// An increment of the write would leave a number no value can hold, against every entry up to the shard's
    /// `lastIndex`: the write is refused whole; nothing was appended.
    case unrepresentable(UnrepresentableIncrementError)
}

/// The leader's commands: each decides, under Firebase's rules, whether and what to append.
extension ShardStateMachine {
    /// A write wholly inside this shard, applied only if every one of `conditions` holds.
    public mutating func write(_ write: ShardWrite, conditions: [WriteCondition]) -> ShardDecision {
        if self.hasApplied(write) { return .duplicate }
        let reads = conditions.map(\.path)
        if self.isLocked(namespace: write.namespace, mutations: write.mutations, reads: reads, except: nil) {
            return .blocked
        }
        // The write's tree, looked up once for every step below (each lookup hashed the namespace again).
        let tree = self.tree(of: write.namespace)
        if self.landsBelowSpineLeaf(write, in: tree) || self.lacksSpinePriority(write, in: tree) {
            return .needsAllShards
        }
        for condition in conditions {
            let current = tree.node(at: condition.path)
            if current.hash != condition.expectedHash { return .conditionFailed(current: current) }
        }
        var resolved: ShardEdits?
        switch self.resolving(write, in: tree) {
        case .success(let edits): resolved = edits
        case .failure(let error): return .unrepresentable(error)
        }
        return self.append(.write(write), resolved: &resolved)
    }

    /// Locks `paths` for a transaction that reads them before it prepares (a compare-and-set or server values on
    /// the spine). Nothing is logged: a crash before the prepare forgets the lock, and the transaction aborts.
    /// - Returns: false when an overlapping path is locked by another transaction.
    public mutating func lock(_ transaction: TransactionID, namespace: String, paths: [Path]) -> Bool {
        if self.isLocked(namespace: namespace, mutations: [], reads: paths, except: transaction) { return false }
        self.setReadLock(transaction, ShardLock(namespace: namespace, paths: paths))
        return true
    }

    /// Releases a transaction's read locks when it gives up before preparing here.
    public mutating func unlock(_ transaction: TransactionID) {
        self.clearReadLock(transaction)
    }

    /// Phase one: logs this shard's part of a transaction and locks its paths (and guards) until the decision.
    public mutating func prepare(_ transaction: TransactionID, _ intent: ShardIntent) -> ShardDecision {
        if let obstacle = self.obstacleToCommit(transaction, intent) { return obstacle }
        if let error = self.unrepresentableIncrement(in: intent.write) { return .unrepresentable(error) }
        return self.append(.prepare(transaction, intent))
    }

    /// The anchor logs the decision together with its own part (locking and deciding in one step), after every
    /// other participant prepared. An abort carries no part.
    /// A decision for a transaction that already has one is refused with that decision: how a resolver's abort
    /// and a slow coordinator's commit are kept from both winning.
    public mutating func decide(_ transaction: TransactionID, commit: Bool, part: ShardIntent?) -> ShardDecision {
        if let decided = self.decisions[transaction] { return .alreadyDecided(commit: decided) }
        if commit, let part, self.hasApplied(part.write) { return .duplicate }
        if commit, let part,
            self.isLocked(
                namespace: part.write.namespace, mutations: part.write.mutations, reads: [], except: transaction)
        {
            return .blocked
        }
        var resolved: ShardEdits?
        if commit, let part {
            let tree = self.tree(of: part.write.namespace)
            if self.landsBelowSpineLeaf(part.write, in: tree) || self.lacksSpinePriority(part.write, in: tree) {
                return .needsAllShards
            }
            switch self.resolving(part.write, in: tree) {
            case .success(let mutations): resolved = mutations
            case .failure(let error): return .unrepresentable(error)
            }
        }
        return self.append(.decide(transaction, commit: commit, commit ? part : nil), resolved: &resolved)
    }

    /// A participant logs the decision it learned, finishing its part (nothing, when the part is finished
    /// already: the coordinator and a resolver may both finish it).
    public mutating func finish(_ transaction: TransactionID, commit: Bool) -> ShardDecision {
        guard self.intents[transaction] != nil else {
            self.clearReadLock(transaction)
            return .nothingToDo
        }
        return self.append(.finish(transaction, commit: commit))
    }

    /// Whether this shard's part of a transaction can be prepared, or committed at once with every other part in
    /// the same log record (`commit(_:_:)`): nil when it can, else why not — `.duplicate`, `.blocked` or
    /// `.needsAllShards`, which the two-phase path handles (answering the duplicate, parking, rerunning over every
    /// shard).
    /// Borrowing: the part is read where it is held (the write loop's part is its log entry's), not copied out.
    public func obstacleToCommit(_ transaction: TransactionID, _ part: borrowing ShardIntent) -> ShardDecision? {
        self.obstacleToCommit(transaction, part, in: self.tree(of: part.write.namespace))
    }

    /// `obstacleToCommit(_:_:)` with the part's tree (its namespace's) already looked up.
    private func obstacleToCommit(
        _ transaction: TransactionID, _ part: borrowing ShardIntent, in tree: borrowing Node
    ) -> ShardDecision? {
        if self.hasApplied(part.write) { return .duplicate }
        if self.isLocked(
            namespace: part.write.namespace, mutations: part.write.mutations, reads: part.guards, except: transaction)
        {
            return .blocked
        }
        if self.landsBelowSpineLeaf(part.write, in: tree) || self.lacksSpinePriority(part.write, in: tree) {
            return .needsAllShards
        }
        return nil
    }

    /// What committing at once asks of each participant before any part is appended, in one step: nil when
    /// `obstacleToCommit` finds an obstacle, else the part's mutations as `resolving(_:)` resolves them (or the
    /// increment no number can hold).
    public func resolvingToCommit(
        _ transaction: TransactionID, _ part: borrowing ShardIntent
    ) -> Result<ShardEdits, UnrepresentableIncrementError>? {
        // The part's tree, looked up once for both steps (each lookup hashed the namespace again).
        let tree = self.tree(of: part.write.namespace)
        guard self.obstacleToCommit(transaction, part, in: tree) == nil else { return nil }
        return self.resolving(part.write, in: tree)
    }

    /// `resolvingToCommit(_:_:)` for a part held as the entry it is logged as, which must be `ShardEntry.commit` of
    /// `transaction` (`ShardActor.commitTogether` makes only those).
    /// Borrowing: the entry is matched where it is held (a `guard case` copied the part out of it whole).
    func resolvingToCommit(
        _ transaction: TransactionID, _ entry: borrowing ShardEntry
    ) -> Result<ShardEdits, UnrepresentableIncrementError>? {
        switch entry {
        case .commit(let committed, let part) where committed == transaction:
            return self.resolvingToCommit(transaction, part)
        default:
            // A programmer's invariant, as in `commit(_:resolved:)`: anything else would pass for an obstacle.
            preconditionFailure("only a part's commit entry of this transaction is resolved to commit at once")
        }
    }

    /// `commit(_:_:resolved:)` for a part held as the entry it is logged as (`ShardEntry.commit`), which
    /// `resolvingToCommit(_:_:)` accepted just before: the write loop makes each part's entry once, and the machine
    /// applies and the log encodes that same entry, so the part is never copied into another. `resolved` is left
    /// resolved whole (the increments left to the apply resolved by it).
    mutating func commit(_ entry: ShardEntry, resolved: inout ShardEdits) -> ShardApplied {
        // A programmer's invariant: `ShardActor.commitTogether` hands only the entries it checked.
        guard case .commit = entry else { preconditionFailure("only a part's commit entry is committed at once") }
        // Moved, not copied, so that the apply holds the edits' only reference and resolves them in place.
        var given = Optional(consume resolved)
        let applied = self.applyNext(entry, resolved: &given)
        // A programmer's invariant: a part's commit entry is a write, whose apply hands its edits back.
        guard let edits = given.take() else { preconditionFailure("a part's commit kept no edits") }
        resolved = edits
        return applied
    }

    /// Commits this shard's part of a transaction at once (`ShardEntry.commit`). Only for a log that orders every
    /// shard, in the same turn as every other participant, and once `obstacleToCommit` found nothing in any of them:
    /// the parts then go into one log record, so they are durable together or not at all. (The write loop commits
    /// through `commit(_:resolved:)`, with the entry it resolved.)
    public mutating func commit(_ transaction: TransactionID, _ part: ShardIntent) -> ShardDecision {
        self.append(.commit(transaction, part))
    }

    /// The anchor logs that it may forget these decisions (the ones it still holds).
    public mutating func forget(_ transactions: [TransactionID]) -> ShardDecision {
        let held = transactions.filter { self.decisions[$0] != nil }
        guard !held.isEmpty else { return .nothingToDo }
        return self.append(.forget(held))
    }

    /// The first increment of `write` whose sum no number can hold if the write were applied now, or after any of
    /// the increments of its counter prepared here (they commute, so they may apply before it, in any order); a
    /// leader asks before it appends, since its machine has applied every entry before the one it is about to add.
    public func unrepresentableIncrement(in write: ShardWrite) -> UnrepresentableIncrementError? {
        // A write without server values has no increment: nothing to resolve (a prepare asks for every write).
        guard write.mutations.contains(where: \.hasServerValues),
            case .failure(let error) = self.resolving(write)
        else { return nil }
        return error
    }

    /// `write`'s mutations resolved against this machine as it is (what applying the write now makes of them, but
    /// for the increments that cannot overflow, left to the apply: `ShardEdits`), or the first increment whose sum no
    /// number can hold (`unrepresentableIncrement(in:)`): a leader resolves a write once, before it appends, and
    /// hands the result to the apply (`applyNext(_:resolved:)`), before anything else changes the machine.
    /// - Complexity: one lookup from the root for each mutation holding server values but those left to the apply.
    public func resolving(_ write: borrowing ShardWrite) -> Result<ShardEdits, UnrepresentableIncrementError> {
        self.resolving(write, in: self.tree(of: write.namespace))
    }

    /// `resolving(_:)` against `tree`, the write's namespace's tree as this machine holds it.
    private func resolving(
        _ write: borrowing ShardWrite, in tree: borrowing Node
    ) -> Result<ShardEdits, UnrepresentableIncrementError> {
        // Read once: while no tree holds a number of magnitude `Node.hugeMagnitude` (1e300) or more, no increment
        // below it can overflow, neither alone nor after those prepared beside it (which only a counter past
        // `nearOverflow`, 1e308, checks); the apply then adds them where it writes them.
        let hugeNumbers = Node.mayHoldHugeNumbers
        let resolved = Mutation.resolving(write.mutations, in: tree, now: write.now, deferringIncrements: !hugeNumbers)
        guard case .success = resolved, hugeNumbers, !self.intents.isEmpty else { return resolved }
        for mutation in write.mutations {
            guard let delta = mutation.commutingIncrementDelta?.numericValue,
                let current = tree.node(at: mutation.path).leafValue?.numericValue,
                abs(current) >= Self.nearOverflow
            else { continue }
            // Prepared increments of one counter are each below `Mutation.commutingDeltaLimit`, so only a counter
            // this close to the largest number can be pushed over by them.
            var rising = current + max(delta, 0)
            var falling = current + min(delta, 0)
            for intent in self.intents.values where intent.write.namespace == write.namespace {
                for other in intent.write.mutations where other.path == mutation.path {
                    guard let pending = other.commutingIncrementDelta?.numericValue else { continue }
                    if pending > 0 { rising += pending } else { falling += pending }
                }
            }
            if !rising.isFinite || !falling.isFinite {
                return .failure(UnrepresentableIncrementError(path: mutation.path))
            }
        }
        return resolved
    }

    /// How large a counter must be before the increments prepared beside a new one are added up: below it, even
    /// millions of them under `Mutation.commutingDeltaLimit` cannot reach the largest number.
    static let nearOverflow = 1e308

    /// Whether the write names an origin this shard applied already (a write without one never has).
    func hasApplied(_ write: borrowing ShardWrite) -> Bool {
        guard let origin = write.origin else { return false }
        return self.sessions.contains(origin)
    }

    private mutating func append(_ entry: ShardEntry) -> ShardDecision {
        var resolved: ShardEdits?
        return self.append(entry, resolved: &resolved)
    }

    /// Appends `entry`, applied with `resolved` (`applyNext(_:resolved:)`).
    private mutating func append(_ entry: ShardEntry, resolved: inout ShardEdits?) -> ShardDecision {
        let applied = self.applyNext(entry, resolved: &resolved)
        return .appended(entry, applied)
    }

    /// True when a mutation that adds data has a leaf above it on the spine (Firebase turns that leaf into an
    /// object, so every shard's copy of it must go), unless the write itself first clears that leaf (as the
    /// all-shard rerun of such a write does).
    /// - Complexity: one child lookup per spine level above each mutation, none for a mutation whose spine nodes the
    ///   one before it checked already (a star's two paths in one post).
    /// - Parameter tree: the write's namespace's tree as this machine holds it (looked up once by the caller).
    func landsBelowSpineLeaf(_ write: borrowing ShardWrite, in tree: borrowing Node) -> Bool {
        // The spine nodes are walked first and whether the mutation adds data asked only at a leaf found there
        // (spine leaves are rare): asking first copied every mutation out whole (its path and every part of its
        // value retained, then released) around the call into its value.
        // The keys of the last path whose spine nodes were walked without finding a leaf, and how many of them
        // name those nodes.
        var clear: (keys: [Key], count: Int)?
        // Each mutation is read where the array's buffer holds it: the array's subscript copied it out whole.
        return write.mutations.withUnsafeBufferPointer { mutations in
            for index in mutations.indices {
                let keys = mutations[index].path.keys
                let levels = min(self.spineDepth, keys.count)
                // The spine nodes walked are those at the first `levels` prefixes of the path.
                let spine = max(levels - 1, 0)
                if levels > 0, let last = clear, Self.samePrefix(last.keys, keys, count: spine, of: last.count) {
                    continue
                }
                guard let depth = tree.leafDepth(along: keys, levels: levels) else {
                    clear = levels > 0 ? (keys, spine) : nil
                    continue
                }
                if mutations[index].addsData(), !Self.clears(write, pathOf: keys.prefix(depth)) { return true }
                clear = nil
            }
            return false
        }
    }

    /// Whether the first `count` keys of `keys` are the first `lastCount` keys of `last` (so as many, and equal),
    /// compared by index without a slice of either.
    private static func samePrefix(_ last: [Key], _ keys: [Key], count: Int, of lastCount: Int) -> Bool {
        guard count == lastCount else { return false }
        for depth in 0..<count where last[depth] != keys[depth] { return false }
        return true
    }

    /// Whether `write` sets the path of `keys` to nothing (with no server values), clearing a leaf there first.
    /// Asked only when a leaf is found on the spine, so the common write builds nothing.
    private static func clears(_ write: ShardWrite, pathOf keys: ArraySlice<Key>) -> Bool {
        write.mutations.contains { mutation in
            guard case .set(let path, let value) = mutation, value.node.isEmpty, !value.hasServerValues else {
                return false
            }
            return path.keys.elementsEqual(keys)
        }
    }
}
