import HearthCore

/// A shard that catches up by a snapshot instead of entries (a replica too far behind its leader's compacted log,
/// or a node restarting from its snapshot files): the snapshot's state takes the place of the shard's part of the
/// view, and the view stays a union of consistent shard parts where every transaction appears all at once.
///
/// The snapshot was cut when no transaction touching its shard was half received, and carries how far every other
/// shard had been received then (`ShardSnapshot.cut`). So a transaction's part in the snapshot's shard is inside the
/// snapshot exactly when its parts elsewhere are at or below that cut. A snapshot *activates* once every other
/// shard has been received here through the cut (a shard waiting for a snapshot of its own must activate with it,
/// or have shown that far already); from then on it stands in for its shard's part of every transaction it holds.
/// The active snapshots are *shown* in one step, with every transaction they hold: the view's part of each
/// snapshot's shard becomes the snapshot's, then the held transactions' other parts and the entries that waited
/// behind the snapshots follow (an entry behind a snapshot that touches a spine path a held transaction sets waits
/// for that transaction, whose spine values are joined with the snapshot's). The step is tried on a copy of the
/// feed and kept only when every held transaction was shown in it, so a reader never sees part of one. The shard's
/// entries received before the snapshot and not shown yet are covered by it and leave its queue; its entries after
/// it wait behind it.
extension CommitFeed {
    /// A shard's snapshot waiting to be shown.
    struct Restore {
        var index: UInt64
        /// Per other shard, how far it had been received where the snapshot was cut.
        var cut: [Int: UInt64]
        var trees: [String: Node]
        var spineDepth: Int
        var intents: [TransactionID: ShardIntent]
        /// What the view showed of the shard when the snapshot arrived.
        var base: UInt64
        /// Every other shard has been received through the cut: it stands in for its shard's transaction parts.
        var isActive = false
        /// Shown in the step under way: the entries behind it may follow.
        var isShown = false
        /// Transactions it holds a part of, which the step that shows it must show too.
        var held: Set<TransactionID> = []
        /// The held transactions with a part that sets a spine path (at least those: entries behind the snapshot
        /// that touch such a path wait for them), so that an entry need not be checked against every held one.
        var spineSetters: Set<TransactionID> = []
    }

    /// Takes `snapshot` of its shard in place of every entry it covers; returns the updates that became ready.
    mutating func restore(_ snapshot: ShardSnapshot) -> [Update] {
        let shard = snapshot.machine.shard
        let index = snapshot.machine.lastIndex
        // A programmer's invariant: a replica's log refuses a snapshot behind what the view received
        // (`RaftShardLog.install` halts the group, a damaged log) before handing it here.
        precondition(
            index >= self.received[shard],
            "shard \(shard) was given a snapshot at entry \(index) after receiving entry \(self.received[shard])")
        let base = self.restores[shard]?.base ?? self.appliedIndex[shard]
        for applied in self.queues[shard].entries {
            if case .finished(let transaction, _, _?) = applied.effect {
                self.parts[transaction]?[shard]?.isCovered = true
            }
        }
        self.queues[shard].removeAll()
        self.queuedPaths[shard] = QueuedPaths()
        self.queuedPrepares[shard] = [:]
        self.blocked[shard] = SortedIndexes()
        self.received[shard] = index
        // The anchor's decisions as of the snapshot; the entries after it add and forget from there.
        self.decisions[shard] = snapshot.decisions
        self.replaceSessions(of: shard, with: snapshot.machine.sessions)
        self.restores[shard] = Restore(
            index: index, cut: snapshot.cut, trees: snapshot.machine.trees, spineDepth: snapshot.machine.spineDepth,
            intents: snapshot.machine.intents, base: base)
        var updates: [Update] = []
        self.settleRestores(into: &updates)
        return updates
    }

    /// True when a snapshot of `shard` can be cut from the view now: no snapshot waits to be shown, the shard shows
    /// everything it received, and no transaction touching it is half received.
    func canCutSnapshot(of shard: Int) -> Bool {
        self.restores.isEmpty && self.queues[shard].isEmpty
            && !self.parts.values.contains { known in known.values.contains { $0.part.participants.contains(shard) } }
    }

    /// Activates what can be, and shows the active snapshots once every transaction they hold can be shown with
    /// them; repeats while that changes anything.
    mutating func settleRestores(into updates: inout [Update]) {
        while !self.restores.isEmpty {
            let activated = self.activateRestores()
            let active = self.restores.filter(\.value.isActive)
            guard !active.isEmpty else { return }
            let held = active.values.reduce(into: Set<TransactionID>()) { $0.formUnion($1.held) }
            // Cheap first: every held transaction must have all its parts, in entries or in active snapshots.
            guard held.allSatisfy(self.hasEveryPart) else {
                if activated { continue }
                return
            }
            var attempt = self
            var shown: [Update] = []
            attempt.show(active.keys.sorted(), holding: held.sorted(), into: &shown)
            guard held.allSatisfy({ attempt.parts[$0] == nil }) else {
                if activated { continue }
                return
            }
            self = attempt
            updates += shown
        }
    }

    /// Whether `shard`'s entries wait behind a snapshot that is not shown yet.
    func isBehindRestore(_ shard: Int) -> Bool {
        self.restores[shard].map { !$0.isShown } ?? false
    }

    /// Whether `change`, queued in `shard` behind its snapshot (shown in the step under way), touches a spine path
    /// that a transaction the snapshot holds, not shown yet, sets: that transaction joins its spine values with the
    /// snapshot's part, so the change must follow it.
    func waitsForHeldTransaction(shard: Int, change: ShardChange) -> Bool {
        guard let restore = self.restores[shard], restore.isShown else { return false }
        for transaction in restore.spineSetters where restore.held.contains(transaction) {
            for known in self.parts[transaction]?.values ?? [:].values where !known.isCovered {
                guard known.part.change.namespace == change.namespace else { continue }
                for case .set(let path, _) in known.part.change.mutations where path.count < restore.spineDepth {
                    if change.mutations.contains(where: { $0.path.contains(path) || path.contains($0.path) }) {
                        return true
                    }
                }
            }
        }
        return false
    }

    /// A transaction was shown: the snapshots that held it no longer wait for it. Returns their shards.
    mutating func transactionShown(_ transaction: TransactionID) -> [Int] {
        var holders: [Int] = []
        for shard in self.restores.keys where self.restores[shard]?.held.remove(transaction) != nil {
            self.restores[shard]?.spineSetters.remove(transaction)
            holders.append(shard)
        }
        return holders.sorted()
    }

    /// Whether `shard`'s active snapshot holds its part of `transaction`.
    func isHeldByActiveRestore(_ transaction: TransactionID, shard: Int) -> Bool {
        guard let restore = self.restores[shard], restore.isActive, let known = self.parts[transaction] else {
            return false
        }
        return Self.holds(restore, shard: shard, known: known)
    }

    /// For each shard a shown transaction's part is held by a snapshot: that snapshot's nodes at the spine paths the
    /// transaction sets, joined with the other parts there.
    func restoredSpineParts(_ shards: [Int], of changes: [ShardChange], namespace: String) -> [[ResolvedMutation]] {
        shards.compactMap { shard in
            guard let restore = self.restores[shard] else { return nil }
            let tree = restore.trees[namespace] ?? .empty
            var paths = Set<Path>()
            for change in changes where change.namespace == namespace {
                for case .set(let path, _) in change.mutations where path.count < restore.spineDepth {
                    paths.insert(path)
                }
            }
            return paths.map { .set($0, tree.node(at: $0)) }
        }
    }

    /// Activates the snapshots whose cut every other shard has been received through (together with the snapshots
    /// of shards they need shown that far), noting the transactions they hold; returns whether any was activated.
    private mutating func activateRestores() -> Bool {
        var ready = Set(
            self.restores.filter { shard, restore in
                !restore.isActive
                    && restore.cut.allSatisfy { other, index in
                        other == shard || other >= self.received.count || self.received[other] >= index
                    }
            }.keys)
        while true {
            let kept = ready.filter { shard in
                self.restores[shard]?.cut.allSatisfy { other, index in
                    guard other != shard, let pending = self.restores[other], !pending.isActive else { return true }
                    return ready.contains(other) || pending.base >= index
                } ?? false
            }
            if kept.count == ready.count { break }
            ready = kept
        }
        guard !ready.isEmpty else { return false }
        for shard in ready { self.restores[shard]?.isActive = true }
        for (transaction, known) in self.parts {
            for shard in ready {
                guard let restore = self.restores[shard], Self.holds(restore, shard: shard, known: known) else {
                    continue
                }
                self.restores[shard]?.held.insert(transaction)
                if known.values.contains(where: { Self.setsSpine($0.part, depth: restore.spineDepth) }) {
                    self.restores[shard]?.spineSetters.insert(transaction)
                }
            }
        }
        return true
    }

    /// A part of `transaction` arrived: a snapshot holding the transaction must know if the part sets a spine path.
    mutating func noteSpineSetter(_ transaction: TransactionID, part: ShardTransactionPart) {
        for shard in self.restores.keys {
            guard let restore = self.restores[shard], restore.held.contains(transaction),
                Self.setsSpine(part, depth: restore.spineDepth)
            else { continue }
            self.restores[shard]?.spineSetters.insert(transaction)
        }
    }

    /// Whether `part` sets a path above the shards' depth (a spine path).
    private static func setsSpine(_ part: ShardTransactionPart, depth: Int) -> Bool {
        part.change.mutations.contains { mutation in
            if case .set(let path, _) = mutation { return path.count < depth }
            return false
        }
    }

    /// Whether every part of `transaction` arrived as an entry or is held by an active snapshot.
    private func hasEveryPart(_ transaction: TransactionID) -> Bool {
        guard let known = self.parts[transaction], let participants = known.values.first?.part.participants else {
            return true
        }
        return participants.allSatisfy { participant in
            if let part = known[participant], !part.isCovered { return true }
            return self.isHeldByActiveRestore(transaction, shard: participant)
        }
    }

    /// Whether `restore` (of `shard`) holds the shard's part of the transaction whose known parts are `known`.
    private static func holds(_ restore: Restore, shard: Int, known: [Int: Part]) -> Bool {
        guard let participants = known.values.first?.part.participants, participants.contains(shard) else {
            return false
        }
        if let own = known[shard] { return own.isCovered }
        return known.contains { other, part in part.index <= restore.cut[other] ?? 0 }
    }

    /// Shows the active snapshots of `shards` at once, then the transactions `held` by them and the entries that
    /// waited behind them, as far as they can be shown.
    private mutating func show(_ shards: [Int], holding held: [TransactionID], into updates: inout [Update]) {
        var parts: [Int: [String: Node]] = [:]
        var spineDepth = 1
        for shard in shards {
            guard let restore = self.restores[shard] else { continue }
            self.restores[shard]?.isShown = true
            parts[shard] = restore.trees
            spineDepth = restore.spineDepth
            self.intents[shard] = restore.intents
        }
        let router = ShardRouter(shardCount: self.queues.count, shardDepth: spineDepth, hashBuckets: self.hashBuckets)
        updates.append(
            Update(namespace: "", parts: [], increments: [:], restored: RestoredParts(parts: parts, router: router))
        )
        // Every held transaction first, then one sweep per shard: a sweep after each transaction walked every
        // blocked entry above it again, which made a restart with thousands of entries queued take minutes.
        var queued: [(shard: Int, index: UInt64)] = []
        for transaction in held {
            guard let known = self.parts[transaction], let participants = known.values.first?.part.participants else {
                continue
            }
            if let (shard, part) = known.first(where: { !$0.value.isCovered }) {
                queued.append((shard, part.index))
            } else {
                // Snapshots hold all of it: nothing of it is queued, and it is shown with them.
                _ = self.consumeTransaction(transaction, participants: participants, into: &updates)
            }
        }
        self.examine(queued.reversed(), sweeping: Array(shards), into: &updates)
        for shard in shards { self.restores[shard] = nil }
    }
}
