public import HearthCore
package import HearthWire

/// What applying one entry did: the change readers will see, and the transaction bookkeeping a snapshot keeps.
public struct ShardApplied: Sendable {
    public var shard: Int
    public var index: UInt64
    public var effect: Effect
    /// The named write the entry applied (a single-shard write, or a committed part), which the read view
    /// remembers too, so that its snapshots carry the shard's `WriteSessions`.
    public var recorded: WriteSessions.Record?

    public enum Effect: Sendable {
        /// A single-shard write, resolved.
        case write(ShardChange)
        /// A transaction's part was prepared here.
        case prepared(TransactionID, ShardIntent)
        /// A transaction's part was finished here: by the anchor's decision (`decision` set), by a participant
        /// learning it, or by a part committed at once with the others (`ShardEntry.commit`). `committed` is the
        /// resolved part when it committed (nil for an abort, or when nothing was prepared here); readers see it once
        /// every participant's part is committed.
        case finished(TransactionID, decision: Bool?, committed: ShardTransactionPart?)
        /// Only the shard's transaction bookkeeping changed: the anchor forgot these decisions (none, for a second
        /// decision it ignored); readers see nothing.
        case bookkeeping(forgotten: [TransactionID])
    }
}

/// One shard's resolved part of a committed transaction.
public struct ShardTransactionPart: Sendable {
    public var participants: [Int]
    public var change: ShardChange
    /// The transaction's whole values at the spine paths it sets, when the leader that cut them attached them
    /// (leader memory only, never logged; empty after recovery): the read view shows these instead of joining the
    /// parts.
    public var spineValues: [Path: Node] = [:]
}

/// What a write changed in one shard: its mutations as this shard resolved them, which of them were bare
/// increments (the read view adds those deltas itself when commuting increments reach it in another order), and the
/// shard's own subtrees the write left behind, which the read view puts in place when it shows the write in the
/// shard's order (`CommitFeed.Update.subtrees`).
public struct ShardChange: Sendable {
    /// Where a change's bare increments are read from: a table given whole, or the write's mutations as sent, read
    /// only when asked (`increments`).
    private enum IncrementSource: Sendable {
        case given([Path: LeafValue])
        case sent([Mutation])
    }

    public var namespace: String
    public var mutations: [ResolvedMutation]
    /// The bare increments' source. The write loop keeps the write's own mutations (one retain) rather than a table
    /// built for every part: only a change that waits in its shard's queue, or is shown without its subtrees, reads
    /// them, and a star's seldom does.
    private var incrementSource: IncrementSource
    /// Per subtree at the shard depth that the write touched, the shard's node there right after the write: the
    /// read view's node there too once every earlier entry of the shard is shown and no later one is, since that
    /// subtree lies wholly in this shard (O(1) to take: the view and the shard then share it, and whichever edits it
    /// next copies only its path). Nil when the write sets a spine path, where a shard holds only its part. On the
    /// write loop, a subtree a later entry of the same turn touched again is named without its node
    /// (`ShardSubtree.node`, `ShardApplied.captureTurn`).
    public var subtrees: [ShardSubtree]? = nil

    /// A change whose bare increments' deltas are `increments`, by path.
    public init(
        namespace: String, mutations: [ResolvedMutation], increments: [Path: LeafValue],
        subtrees: [ShardSubtree]? = nil
    ) {
        self.namespace = namespace
        self.mutations = mutations
        self.incrementSource = .given(increments)
        self.subtrees = subtrees
    }

    /// A change whose bare increments are those among `sent`, the write's mutations before they were resolved.
    init(namespace: String, mutations: [ResolvedMutation], sent: [Mutation], subtrees: [ShardSubtree]?) {
        self.namespace = namespace
        self.mutations = mutations
        self.incrementSource = .sent(sent)
        self.subtrees = subtrees
    }

    /// The bare increments' deltas by path (the read view adds them to its own values when it applies the mutations
    /// itself). Built on each read from the write's mutations: read it once per use.
    /// - Complexity: O(m) for a write of m mutations.
    public var increments: [Path: LeafValue] {
        switch self.incrementSource {
        case .given(let increments):
            return increments
        case .sent(let mutations):
            var increments: [Path: LeafValue] = [:]
            for mutation in mutations {
                if let delta = mutation.incrementDelta { increments[mutation.path] = delta }
            }
            return increments
        }
    }
}

/// One subtree of a shard's tree, rooted at the shard depth, as a write left it.
public struct ShardSubtree: Sendable {
    public var path: Path
    /// The shard's node there right after the write; nil when a later entry of the shard, appended in the same turn
    /// of the write loop, touched the subtree again and carries its node (the write's own state of it was never
    /// taken, so the shard edited the subtree in place). The read view then takes that later node when it shows
    /// both entries at once, and applies the write's mutations otherwise.
    public var node: Node?
    /// Without a node: the entry of the same shard and turn that carries it, as `captureTurn` found it (nil when a
    /// later spine write of the turn wrote over the subtree, or the entry has its node). When the read view shows that
    /// entry in the same batch, it leaves this one's mutations to it without looking the subtree up again.
    public var supersededBy: (shard: Int, index: UInt64)? = nil
}

/// Applying entries: the one deterministic step every replica takes.
extension ShardStateMachine {
    /// Applies entry `index` as a log hands it (a follower's committed entry, a rebuild, recovery's replay):
    /// entries must arrive densely, in log order.
    /// - Throws: `ShardEntryGapError` when `index` does not follow `lastIndex` (the log is damaged); nothing changes.
    /// - Complexity: O(m × depth × log n) for a write of m mutations; O(1) for a prepare.
    public mutating func apply(_ entry: ShardEntry, at index: UInt64) throws(ShardEntryGapError) -> ShardApplied {
        guard index > self.lastIndex, index - self.lastIndex == 1 else {
            throw ShardEntryGapError(shard: self.shard, index: index, lastIndex: self.lastIndex)
        }
        var resolved: ShardEdits?
        return self.applyNext(entry, resolved: &resolved)
    }

    /// Applies `entry` as the next entry, `lastIndex + 1`: the machine's own commands, whose entries take that index
    /// by construction (so no index can be out of place).
    /// - Parameter resolved: the mutations of the entry's write as the leader resolved them against this machine just
    ///   before (`resolving(_:)`, which found no increment that overflows), so the apply need not read them again;
    ///   left resolved whole (the increments left to the apply resolved by it). Nil: the apply resolves them.
    mutating func applyNext(_ entry: ShardEntry, resolved: inout ShardEdits?) -> ShardApplied {
        self.lastIndex += 1
        let index = self.lastIndex
        let effect: ShardApplied.Effect
        // The named write the entry applied, remembered in `sessions` (read out of the write, never a copy of it).
        var recorded: WriteSessions.Record?
        switch entry {
        case .write(let write):
            effect = .write(self.applyWrite(write, resolved: &resolved))
            recorded = self.remember(write)
        case .prepare(let transaction, let intent):
            self.addIntent(transaction, intent)
            self.clearReadLock(transaction)
            effect = .prepared(transaction, intent)
        case .decide(let transaction, _, _) where self.decisions[transaction] != nil:
            // The first decision logged wins; leaders never log a second, and replicas ignore one alike.
            self.clearReadLock(transaction)
            effect = .bookkeeping(forgotten: [])
        case .decide(let transaction, let commit, let part):
            self.clearReadLock(transaction)
            self.decisions[transaction] = commit
            let committed =
                commit
                ? part.map {
                    ShardTransactionPart(
                        participants: $0.plan.participants,
                        change: self.applyWrite($0.write, resolved: &resolved))
                }
                : nil
            if commit, let part { recorded = self.remember(part.write) }
            effect = .finished(transaction, decision: commit, committed: committed)
        case .finish(let transaction, let commit):
            let finished = self.finishIntent(transaction, commit: commit)
            if let finished { recorded = self.remember(finished.write) }
            effect = .finished(transaction, decision: nil, committed: finished?.part)
        case .forget(let transactions):
            for transaction in transactions { self.decisions.removeValue(forKey: transaction) }
            effect = .bookkeeping(forgotten: transactions)
        case .commit(let transaction, let part):
            self.clearReadLock(transaction)
            let committed = ShardTransactionPart(
                participants: part.plan.participants,
                change: self.applyWrite(part.write, resolved: &resolved))
            recorded = self.remember(part.write)
            effect = .finished(transaction, decision: nil, committed: committed)
        }
        return ShardApplied(shard: self.shard, index: index, effect: effect, recorded: recorded)
    }

    /// Remembers `write` in `sessions` when it is named (`WriteOrigin`); returns what was recorded.
    private mutating func remember(_ write: ShardWrite) -> WriteSessions.Record? {
        guard let origin = write.origin else { return nil }
        let record = WriteSessions.Record(origin: origin, now: write.now)
        self.sessions.record(record)
        return record
    }

    private mutating func finishIntent(_ transaction: TransactionID, commit: Bool)
        -> (part: ShardTransactionPart, write: ShardWrite)?
    {
        self.clearReadLock(transaction)
        guard let intent = self.removeIntent(transaction), commit else { return nil }
        var resolved: ShardEdits?
        let part = ShardTransactionPart(
            participants: intent.plan.participants, change: self.applyWrite(intent.write, resolved: &resolved))
        return (part, intent.write)
    }

    /// Resolves every mutation against the tree as it is before the write (unless `given` holds them resolved so,
    /// but for the increments left to the apply, which it resolves there and writes back), then applies them in one
    /// descent, with the result of applying them in order (`Node.apply(_:incrementing:)`).
    private mutating func applyWrite(_ write: ShardWrite, resolved given: inout ShardEdits?) -> ShardChange {
        let resolved: [ResolvedMutation]
        if var edits = given.take() {
            // Moved out of the caller's variable, so the increments are written back where the one array holds them
            // (shared, they copied it), and the tree edited where the dictionary keeps it; then handed back resolved.
            self.editTree(of: write.namespace) { tree in edits.apply(to: &tree) }
            resolved = edits.edits
            given = edits
        } else {
            // An increment no number can hold (two writes raced past the check made when they were ordered) leaves
            // this shard's part of the write unapplied as a whole, alike on every replica, rather than storing
            // infinity.
            guard
                case .success(let mutations) = Mutation.resolving(
                    write.mutations, in: self.tree(of: write.namespace), now: write.now)
            else {
                return ShardChange(namespace: write.namespace, mutations: [], increments: [:])
            }
            resolved = mutations
            // Edited where the dictionary keeps it, found once: its nodes are held only there, so edited in place.
            self.editTree(of: write.namespace) { tree in tree.apply(resolved) }
        }
        for index in resolved.indices { self.notePriority(resolved[index], namespace: write.namespace) }
        let tree = self.defersSubtrees ? nil : self.tree(of: write.namespace)
        return ShardChange(
            namespace: write.namespace, mutations: resolved, sent: write.mutations,
            subtrees: Self.subtrees(
                touchedBy: resolved, in: tree, spineDepth: self.spineDepth, reusing: &self.recentSubtreePaths))
    }

    /// The shard-depth subtrees `mutations` write into, one per subtree, each with its node of `tree` (none when
    /// `tree` is nil: the write loop takes them at its turn's end); nil when one of them sets a spine path. A
    /// subtree below which a mutation writes is named by a path of `recent` when one is equal (a new path's array of
    /// keys is allocated only for a subtree none of the latest writes named).
    /// - Complexity: O(m × depth × log n) lookups for m mutations; no node is copied.
    static func subtrees(
        touchedBy mutations: [ResolvedMutation], in tree: Node?, spineDepth: Int,
        reusing recent: inout RecentSubtreePaths
    ) -> [ShardSubtree]? {
        var subtrees: [ShardSubtree] = []
        subtrees.reserveCapacity(mutations.count)
        // Each mutation's path is matched out of it (`noteSubtree(of:)`), not taken through `TreeEdit.path`.
        for index in mutations.indices {
            guard
                Self.noteSubtree(
                    of: mutations[index], in: &subtrees, tree: tree, spineDepth: spineDepth, reusing: &recent)
            else { return nil }
        }
        return subtrees
    }

    /// `noteSubtree(written:in:tree:spineDepth:reusing:)` for the path `mutation` writes at.
    @inline(__always)
    private static func noteSubtree(
        of mutation: borrowing ResolvedMutation, in subtrees: inout [ShardSubtree], tree: Node?, spineDepth: Int,
        reusing recent: inout RecentSubtreePaths
    ) -> Bool {
        switch mutation {
        case .set(let written, _), .setPriority(let written, _):
            Self.noteSubtree(written: written, in: &subtrees, tree: tree, spineDepth: spineDepth, reusing: &recent)
        }
    }

    /// Adds the shard-depth subtree a mutation written at `written` writes into to `subtrees` (with its node of
    /// `tree`) unless it is there already; false when the mutation sets a spine path instead.
    private static func noteSubtree(
        written: Path, in subtrees: inout [ShardSubtree], tree: Node?, spineDepth: Int,
        reusing recent: inout RecentSubtreePaths
    ) -> Bool {
        guard written.count >= spineDepth else { return false }
        if Self.holds(subtrees, written) { return true }
        let path = written.count == spineDepth ? written : recent.prefix(spineDepth, of: written)
        subtrees.append(ShardSubtree(path: path, node: tree?.node(at: path)))
        return true
    }

    /// Whether one of `subtrees` (at the shard depth) is the start of `written`, which is at least as deep, compared
    /// key by key by `Path.contains` (a loop over both paths' keys here copied each key of both: a retain and a
    /// release of its string, no-ops for a small one, two calls to the runtime all the same).
    private static func holds(_ subtrees: [ShardSubtree], _ written: Path) -> Bool {
        subtrees.contains { $0.path.contains(written) }
    }

    /// Resolves a mutation's server values against `tree` as it is before the write, with no overflow check
    /// (`Mutation.resolving` resolves a write's mutations and checks them in one pass, the same way).
    package static func resolve(_ mutation: Mutation, in tree: Node, now: Int64) -> ResolvedMutation {
        mutation.resolved(against: mutation.serverValueBase(in: tree), now: now)
    }
}
