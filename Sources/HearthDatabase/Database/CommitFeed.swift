import HearthCore

/// Turns every shard's stream of applied entries into updates of the read view, and remembers what a snapshot of
/// that view must carry.
///
/// Each shard's entries arrive in that shard's order. A single-shard write is shown as soon as no earlier entry of
/// its shard that it overlaps is still waiting; a transaction is shown all at once, when every participant's part
/// has arrived and none of them waits behind an overlapping entry. Transactions that overlap hold their locks in
/// every shard they share, so they reach every shard in the same order and this never waits in a cycle; those that
/// do not overlap may arrive in different orders in different shards, and are shown in whichever order completes
/// first. A shard may also jump ahead by a snapshot instead of entries (`CommitFeed+Restore.swift`). A pure value:
/// the read view runs it under its lock; tests run it directly.
struct CommitFeed {
    /// Shards' states from snapshots, to put in place of their parts of the view.
    struct RestoredParts {
        /// Per restored shard, its trees by namespace.
        var parts: [Int: [String: Node]]
        /// How namespaces are cut into shards (which shard owns a subtree at the shard depth).
        var router: ShardRouter
    }

    /// A transaction's part in one shard, once it arrived.
    struct Part {
        var part: ShardTransactionPart
        var index: UInt64
        /// The shard's snapshot, waiting to be shown, already holds this part (it left the shard's queue).
        var isCovered = false
    }

    /// Per shard: entries that arrived and are not shown yet, in index order.
    var queues: [EntryQueue]
    /// What each shard's queued changes write (`QueuedPaths`), kept with `queues` (an arriving entry is added only
    /// if it is still queued once `receive` has shown what it could).
    var queuedPaths: [QueuedPaths]
    /// Per shard: the index of each transaction's prepare entry still queued, kept with `queues` (a finish checks
    /// it instead of scanning the queue before it).
    var queuedPrepares: [[TransactionID: UInt64]]
    /// Per shard: the index of the newest entry that arrived (or that a snapshot brought).
    var received: [UInt64]
    /// Committed parts of transactions not yet shown, by participant.
    var parts: [TransactionID: [Int: Part]] = [:]
    /// Per shard: a snapshot that arrived and is not shown yet.
    var restores: [Int: Restore] = [:]
    /// Per shard: transactions prepared there and not yet finished, as a snapshot must keep them.
    var intents: [[TransactionID: ShardIntent]]
    /// Per shard: the decisions it anchors. In a cluster these are exactly its state machine's (taken when a decision
    /// arrives, dropped when the anchor forgets it), so a shard snapshot cut from the view carries them; a single
    /// node prunes them to the ones a prepared part still needs when it snapshots (`pruneDecisions`).
    var decisions: [[TransactionID: Bool]]
    /// Per shard: the named writes it applied, exactly as its state machine held them after the entries whose
    /// records are recorded here; the records of later entries wait in `unrecorded` (`CommitFeed+Sessions.swift`).
    /// Read through `sessions()`, which records them first.
    var sessionsRecorded: [WriteSessions]
    /// Per shard: the records of named writes (`ShardApplied.recorded`) that arrived after `sessionsRecorded` was
    /// last brought up to date, in arrival order.
    var unrecorded: [[WriteSessions.Record]]
    /// Per shard: how long its `unrecorded` grows before they are recorded here (`CommitFeed+Sessions.swift`).
    var recordingLimits: [Int]
    /// The least of `recordingLimits` (`CommitFeed.recordingLimit`; tests lower it).
    var minimumRecordingLimit = CommitFeed.recordingLimit
    /// Whether a source offers the shards' own sessions (`offer(_:)`, the single node's write loop), so the records
    /// wait longer and are asked for rather than recorded here.
    var takesOffers = false
    /// Per shard: sessions a source offered, to take in place of this feed's once the shard received exactly
    /// through their index.
    var offers: [Int: SessionsOffer] = [:]
    /// Sessions were asked for and none offered since.
    var asked = false
    /// How many offers the feed took in place of its own sessions (for tests: in a steady pipeline most are taken).
    var offersTaken = 0
    /// Per shard: indices of queued entries that could be shown but for an earlier overlapping entry of their shard
    /// (for a transaction, each participant's entry once every part is in). Only these can become ready when an
    /// entry of their shard is shown; any other entry becomes ready only when it, or its transaction's last part,
    /// arrives. So an arrival costs what it can unblock, not a scan of every queue.
    var blocked: [SortedIndexes]

    /// What examining a queued entry did.
    enum Examined {
        /// Shown (or, for bookkeeping entries, dropped): these entries left their queues.
        case shown([(shard: Int, index: UInt64)])
        /// Ready but behind an earlier overlapping entry: these entries wait in their queues.
        case blocked([(shard: Int, index: UInt64)])
        /// A transaction's part whose other parts have not all arrived.
        case incomplete
    }

    /// The buckets paths hash into before they are mapped to shards (`ShardRouter.hashBuckets`; nil: one per
    /// shard), so a restored snapshot's subtrees are told apart by the router the node routes by.
    let hashBuckets: Int?

    init(
        appliedIndex: [UInt64], intents: [[TransactionID: ShardIntent]]? = nil,
        decisions: [[TransactionID: Bool]]? = nil, sessions: [WriteSessions]? = nil, hashBuckets: Int? = nil
    ) {
        let count = appliedIndex.count
        self.hashBuckets = hashBuckets
        self.queues = Array(repeating: EntryQueue(), count: count)
        self.queuedPaths = Array(repeating: QueuedPaths(), count: count)
        self.queuedPrepares = Array(repeating: [:], count: count)
        self.received = appliedIndex
        self.intents = intents ?? Array(repeating: [:], count: count)
        self.decisions = decisions ?? Array(repeating: [:], count: count)
        self.sessionsRecorded = sessions ?? Array(repeating: WriteSessions(), count: count)
        self.unrecorded = Array(repeating: [], count: count)
        self.recordingLimits = Array(repeating: Self.recordingLimit, count: count)
        self.blocked = Array(repeating: SortedIndexes(), count: count)
    }

    var shardCount: Int { self.queues.count }

    /// Per shard: every entry up to this index has been shown (or had nothing to show).
    var appliedIndex: [UInt64] {
        (0..<self.queues.count).map { shard in
            if let restore = self.restores[shard] { return restore.base }
            return self.queues[shard].first.map { $0.index - 1 } ?? self.received[shard]
        }
    }

    /// True when nothing waits: the view is a consistent cut at `appliedIndex`.
    var isQuiescent: Bool { self.queues.allSatisfy(\.isEmpty) && self.restores.isEmpty }

    /// Takes applied entries in the order they were committed and returns the view updates that became ready, in the
    /// order to apply them.
    ///
    /// A transaction's parts that follow one another, each in a shard of its own (its parts committed together, one
    /// log record), arrive as one: each is the newest entry of its shard, so none can hold up another, and the
    /// transaction is examined once all of them are in. Shown at once, as they usually are, no part passes through
    /// the queued paths on its way (adding and removing the first part there cost a star 3 % of a node's CPU).
    mutating func receive(_ batch: [ShardApplied]) -> [Update] {
        var updates: [Update] = []
        // Usually one update per entry at most (more only when these release entries queued before them): sized
        // once, the array is not reallocated as it grows.
        updates.reserveCapacity(batch.count)
        self.receive(run: batch, into: &updates)
        return updates
    }

    /// `receive(_:)` for runs of entries in commit order (each a log record's, or a write loop turn's), as the
    /// single node's log hands them over: the same as receiving them joined, but for a transaction whose parts lie
    /// in two runs, which takes the queued path instead of being shown at once (a turn's and a record's parts are
    /// always in one run). They are never joined into one array, which would copy every entry. The updates are
    /// appended to `updates`, which the read view keeps from batch to batch: one buffer sized for the largest batch,
    /// where a new array per batch was a large allocation (which also consolidates the allocator's free lists) and
    /// its free on the commit thread.
    /// - Returns: whether every entry was shown at once, in its shard's order, with the subtrees it carried
    ///   (`showAtOnce`): then a subtree an entry left to a later entry of its turn (`ShardSubtree.supersededBy`) is
    ///   carried by a later update of these as soon as that entry has arrived, which needs no look-up to tell.
    mutating func receive(runs: [[ShardApplied]], into updates: inout [Update]) -> Bool {
        updates.reserveCapacity(runs.reduce(0) { $0 + $1.count })
        var isWhole = true
        // Every run is received, whatever the ones before it answered: `isWhole && receive(…)` would skip the rest.
        for run in runs {
            if !self.receive(run: run, into: &updates) { isWhole = false }
            // Offered sessions are taken where a run ends: a run is a turn of the loop that offered them.
            if !self.offers.isEmpty { self.takeOffers() }
        }
        return isWhole
    }

    /// Takes one run of entries in commit order, appending the updates that became ready; returns whether all of
    /// them were shown at once with their subtrees (`receive(runs:into:)`).
    @discardableResult
    private mutating func receive(run batch: [ShardApplied], into updates: inout [Update]) -> Bool {
        var isWhole = true
        var start = batch.startIndex
        while start < batch.endIndex {
            var end = start + 1
            if case .finished(let transaction, _, _?) = batch[start].effect {
                while end < batch.endIndex, case .finished(transaction, _, _?) = batch[end].effect,
                    !batch[start..<end].contains(where: { $0.shard == batch[end].shard })
                {
                    end += 1
                }
            }
            if !self.receive(batch[start..<end], into: &updates) { isWhole = false }
            start = end
        }
        return isWhole
    }

    /// Takes entries that arrive together: a single entry, or parts of one transaction in distinct shards. Returns
    /// whether they were shown at once with their subtrees (`showAtOnce`).
    private mutating func receive(_ arrivals: ArraySlice<ShardApplied>, into updates: inout [Update]) -> Bool {
        // The last arrival's position, not the arrival: copied out, a whole entry was retained field by field (and
        // released) for every star just to read two numbers.
        guard let last = arrivals.indices.last else { return true }
        if let keptSubtrees = self.showAtOnce(arrivals, into: &updates) { return keptSubtrees }
        for applied in arrivals { self.take(applied) }
        // The last arrival first (as a transaction's last part it brings the others in).
        self.examine([(arrivals[last].shard, arrivals[last].index)], into: &updates)
        self.settleRestores(into: &updates)
        // Only what stays queued goes into the shard's queued paths. Being the newest entries of their shards, the
        // arrivals can hold up nothing examined above (only earlier entries hold a change up), and most are shown
        // at once: a write with nothing queued before it, a transaction's last part.
        for applied in arrivals where self.queues[applied.shard][applied.index] != nil {
            if let change = Self.change(of: applied) { self.queuedPaths[applied.shard].add(change, at: applied.index) }
        }
        return false
    }

    /// Shows at once what nothing can hold up, without queueing it: a single-shard write, or every part of a
    /// transaction together, arriving in shards where nothing is queued while no snapshot waits — a star's usual
    /// path. Queueing, examining and dequeuing them would end the same way, at several times the cost. Returns
    /// whether the update kept every subtree the arrivals carried (a transaction's go only when all its parts carry
    /// theirs); nil, having changed nothing, for anything else.
    private mutating func showAtOnce(_ arrivals: ArraySlice<ShardApplied>, into updates: inout [Update]) -> Bool? {
        guard let first = arrivals.indices.first, self.restores.isEmpty,
            arrivals.allSatisfy({ self.queues[$0.shard].isEmpty })
        else { return nil }
        if arrivals.count == 1, case .write(let change) = arrivals[first].effect {
            self.note(
                arrivals[first].shard, arrivals[first].index, recorded: arrivals[first].recorded, decision: nil)
            updates.append(Self.update(of: change, subtrees: change.subtrees))
            return true
        }
        // The arrivals are parts of this transaction in distinct shards (`receive(_:)`): all of them when they are as
        // many as its participants and each participant is among them. They are read where they lie, in participant
        // order: neither the first one's payload nor each part is copied out whole (a retain and a release of every
        // field of a part, several times a star).
        guard let (transaction, participants) = Self.committedTransaction(arrivals[first]),
            self.parts[transaction] == nil, arrivals.count == participants.count,
            participants.allSatisfy({ participant in arrivals.contains { $0.shard == participant } })
        else { return nil }
        for participant in participants {
            guard let position = arrivals.firstIndex(where: { $0.shard == participant }) else { continue }
            self.note(
                participant, arrivals[position].index, recorded: arrivals[position].recorded,
                decision: Self.decision(of: arrivals[position]))
            self.finishBookkeeping(transaction, shard: participant)
        }
        // Every part carrying its subtrees (a star's usual case): the update reads them from the entries where they
        // lie (`Update.init(shown:namespace:)`), none of their fields copied into it.
        if let (namespace, haveNodes) = Self.namespaceIfEveryPartCarriesSubtrees(arrivals) {
            updates.append(Update(shown: arrivals, namespace: namespace, haveNodes: haveNodes))
            return true
        }
        // Each part's fields in participant order, read in place (a local function: passed on, it allocates no
        // context).
        func forEachPart(_ body: (PartFields) -> Void) {
            for participant in participants {
                guard let position = arrivals.firstIndex(where: { $0.shard == participant }),
                    let fields = Self.partFields(of: arrivals[position])
                else { continue }
                body(fields)
            }
        }
        func increments() -> [Path: LeafValue] {
            var parts: [ShardTransactionPart] = []
            for participant in participants {
                guard let position = arrivals.firstIndex(where: { $0.shard == participant }),
                    case .finished(_, _, let part?) = arrivals[position].effect
                else { continue }
                parts.append(part)
            }
            return Self.increments(of: parts)
        }
        guard
            let update = Self.update(
                parts: participants.count, isInOrder: true, forEachPart: forEachPart, increments: increments)
        else { return true }
        // Read before the update is appended, so that it is moved into the buffer rather than copied.
        let keptSubtrees = update.subtrees != nil || Self.noneCarriesSubtrees(forEachPart)
        updates.append(update)
        return keptSubtrees
    }

    /// The transaction and participants of an entry that finished with a committed part, read without copying the
    /// part; nil for any other entry.
    private static func committedTransaction(_ applied: ShardApplied) -> (TransactionID, [Int])? {
        guard case .finished(let transaction, _, let part?) = applied.effect else { return nil }
        return (transaction, part.participants)
    }

    /// The namespace of a transaction's committed parts `arrivals` when every one of them carries its shard's
    /// subtrees, and whether every such subtree has its node; nil otherwise. Read in place: nothing but the
    /// namespace is copied.
    private static func namespaceIfEveryPartCarriesSubtrees(_ arrivals: ArraySlice<ShardApplied>) -> (
        namespace: String, haveNodes: Bool
    )? {
        var namespace: String?
        var haveNodes = true
        for position in arrivals.indices {
            guard case .finished(_, _, let part?) = arrivals[position].effect, let subtrees = part.change.subtrees
            else { return nil }
            if namespace == nil { namespace = part.change.namespace }
            if haveNodes, subtrees.contains(where: { $0.node == nil }) { haveNodes = false }
        }
        return namespace.map { ($0, haveNodes) }
    }

    /// Whether none of the parts `forEachPart` visits carries subtrees.
    private static func noneCarriesSubtrees(_ forEachPart: ((PartFields) -> Void) -> Void) -> Bool {
        var carries = false
        forEachPart { part in if part.subtrees != nil { carries = true } }
        return !carries
    }

    /// Records an arriving entry in its shard's queue, with what `note` records, and the transaction bookkeeping
    /// its queued part needs.
    private mutating func take(_ applied: ShardApplied) {
        self.note(applied)
        self.queues[applied.shard].append(applied)
        if case .prepared(let transaction, _) = applied.effect {
            self.queuedPrepares[applied.shard][transaction] = applied.index
        }
        if case .finished(let transaction, _, let part?) = applied.effect {
            self.parts[transaction, default: [:]][applied.shard] = Part(part: part, index: applied.index)
            self.noteSpineSetter(transaction, part: part)
        }
    }

    /// Records what an arriving entry tells whether it is queued or shown at once: its shard's received index, the
    /// sessions it applied, and the decision it logged.
    private mutating func note(_ applied: ShardApplied) {
        self.note(applied.shard, applied.index, recorded: applied.recorded, decision: Self.decision(of: applied))
    }

    /// `note` from the entry's fields: an entry read in place from its batch is never copied whole for it.
    private mutating func note(
        _ shard: Int, _ index: UInt64, recorded: WriteSessions.Record?, decision: (TransactionID, Bool)?
    ) {
        // A programmer's invariant, not the log's: every entry reaching the feed was applied by its shard's machine,
        // which takes only the entry after its last one (a log's gap is `ShardEntryGapError` there, which stops the
        // shard before its entries get here), and each log hands a shard's applied entries over once, in order.
        precondition(
            index == self.received[shard] + 1, "shard \(shard) delivered entry \(index) after \(self.received[shard])")
        self.received[shard] = index
        if let recorded { self.keep(recorded, shard: shard) }
        if let (transaction, decision) = decision { self.decisions[shard][transaction] = decision }
    }

    /// The decision an entry logged, with its transaction: a finish that carries its anchor's decision.
    private static func decision(of applied: ShardApplied) -> (TransactionID, Bool)? {
        guard case .finished(let transaction, let decision?, _) = applied.effect else { return nil }
        return (transaction, decision)
    }

    /// Whether queued entry `index` of `shard`, shown now, is shown in its shard's order: it is the only entry
    /// queued there and the newest that arrived, and no snapshot waits (`Update.subtrees`).
    private func isInOrder(shard: Int, index: UInt64) -> Bool {
        self.restores.isEmpty && self.queues[shard].count == 1 && self.received[shard] == index
    }

    /// Shows what became ready among `entries` (examined last to first), then, for every shard where an entry left
    /// the queue (and every shard in `sweeping`), the blocked entries above it, lowest index first.
    ///
    /// An entry is only ever held up by earlier entries of its shard, so one ascending sweep over a shard's blocked
    /// entries, from the lowest index that left, reaches everything that may have become ready, including what an
    /// entry shown during the sweep releases behind it. (Re-examining every blocked entry behind each entry shown
    /// made a node that caught up behind a snapshot, with thousands of entries waiting, quadratic.)
    mutating func examine(
        _ entries: [(shard: Int, index: UInt64)], sweeping shards: [Int] = [], into updates: inout [Update]
    ) {
        var examine = entries
        var sweeps: [Int: UInt64] = [:]
        for shard in shards { sweeps[shard] = 0 }
        while true {
            if let (shard, index) = examine.popLast() {
                self.examineOne(shard: shard, index: index, sweeps: &sweeps, into: &updates)
                continue
            }
            guard let shard = sweeps.keys.min(), var cursor = sweeps.removeValue(forKey: shard) else { return }
            while let next = self.blocked[shard].first(after: cursor) {
                cursor = next
                self.examineOne(shard: shard, index: next, sweeps: &sweeps, into: &updates)
                // This sweep goes on past whatever left the shard at or above the cursor; something below it (a
                // transaction shown through another shard) sends the sweep back.
                if let again = sweeps[shard] {
                    sweeps[shard] = nil
                    if again < cursor { cursor = again }
                }
            }
        }
    }

    /// Examines one queued entry; what it removes from the queues schedules a sweep of those shards.
    private mutating func examineOne(
        shard: Int, index: UInt64, sweeps: inout [Int: UInt64], into updates: inout [Update]
    ) {
        guard self.queues[shard][index] != nil else { return }
        switch self.consume(shard: shard, index: index, into: &updates) {
        case .shown(let removed):
            for (removedShard, removedIndex) in removed {
                self.blocked[removedShard].remove(removedIndex)
                sweeps[removedShard] = min(sweeps[removedShard] ?? removedIndex, removedIndex)
            }
        case .blocked(let entries):
            for (blockedShard, blockedIndex) in entries { self.blocked[blockedShard].insert(blockedIndex) }
        case .incomplete:
            break
        }
    }

    /// Drops decisions no prepared part needs any more (called when a snapshot is taken).
    mutating func pruneDecisions() {
        let pending = Set(self.intents.flatMap(\.keys)).union(self.restores.values.flatMap(\.intents.keys))
        for shard in 0..<self.decisions.count {
            self.decisions[shard] = self.decisions[shard].filter { pending.contains($0.key) }
        }
    }

    /// Shows queued entry `index` of `shard` if it is ready.
    private mutating func consume(shard: Int, index: UInt64, into updates: inout [Update]) -> Examined {
        guard let applied = self.queues[shard][index] else { return .incomplete }
        // Nothing after a snapshot is shown before the snapshot is.
        if self.isBehindRestore(shard) { return .blocked([(shard, index)]) }
        switch applied.effect {
        case .write(let change):
            guard !self.waitsBehind(shard: shard, index: index, change: change) else {
                return .blocked([(shard, index)])
            }
            let isInOrder = self.isInOrder(shard: shard, index: index)
            self.queues[shard].remove(index)
            self.queuedPaths[shard].remove(change, at: index)
            updates.append(Self.update(of: change, subtrees: isInOrder ? change.subtrees : nil))
        case .prepared(let transaction, let intent):
            self.queues[shard].remove(index)
            self.queuedPrepares[shard][transaction] = nil
            self.intents[shard][transaction] = intent
        case .finished(let transaction, _, nil):
            guard !self.waitsForPrepare(transaction, shard: shard, index: index) else {
                return .blocked([(shard, index)])
            }
            self.queues[shard].remove(index)
            self.finishBookkeeping(transaction, shard: shard)
        case .finished(let transaction, _, let part?):
            return self.consumeTransaction(transaction, participants: part.participants, into: &updates)
        case .bookkeeping(let forgotten):
            self.queues[shard].remove(index)
            for transaction in forgotten { self.decisions[shard][transaction] = nil }
        }
        return .shown([(shard, index)])
    }

    /// Shows a transaction once every participant's part is in (or held by a snapshot being shown) and none waits
    /// behind an overlapping entry.
    mutating func consumeTransaction(
        _ transaction: TransactionID, participants: [Int], into updates: inout [Update]
    ) -> Examined {
        guard let received = self.parts[transaction] else { return .incomplete }
        var entries: [(shard: Int, index: UInt64)] = []
        var covered: [Int] = []
        var isBlocked = false
        for participant in participants {
            if self.isHeldByActiveRestore(transaction, shard: participant) {
                covered.append(participant)
                continue
            }
            guard let known = received[participant], !known.isCovered, self.queues[participant][known.index] != nil
            else { return .incomplete }
            if self.isBehindRestore(participant)
                || self.waitsForPrepare(transaction, shard: participant, index: known.index)
                || self.waitsBehind(shard: participant, index: known.index, change: known.part.change)
            {
                isBlocked = true
            }
            entries.append((participant, known.index))
        }
        if isBlocked { return .blocked(entries) }
        let isInOrder = covered.isEmpty && entries.allSatisfy { self.isInOrder(shard: $0.shard, index: $0.index) }
        for (participant, index) in entries {
            self.finishBookkeeping(transaction, shard: participant)
            if let change = received[participant]?.part.change {
                self.queuedPaths[participant].remove(change, at: index)
            }
            self.queues[participant].remove(index)
        }
        self.parts[transaction] = nil
        // What waited behind the snapshots that held it may follow now.
        let released = self.transactionShown(transaction).map { (shard: $0, index: UInt64(0)) }
        let parts = entries.compactMap { received[$0.shard]?.part }
        guard let namespace = parts.first?.change.namespace else { return .shown(entries + released) }
        let restored = self.restoredSpineParts(covered, of: parts.map(\.change), namespace: namespace)
        if let update = Self.update(
            parts: parts.count, adding: restored, isInOrder: isInOrder,
            forEachPart: { body in for part in parts { body(PartFields(part)) } },
            increments: { Self.increments(of: parts) })
        {
            updates.append(update)
        }
        return .shown(entries + released)
    }

    /// The view's update for one write's `change`, shown with `subtrees` (nil when shown out of its shard's order):
    /// its increments are read out of the change only when no subtrees go along, since the view then applies the
    /// mutations itself.
    private static func update(of change: ShardChange, subtrees: [ShardSubtree]?) -> Update {
        Update(
            namespace: change.namespace, parts: [change.mutations],
            increments: subtrees == nil ? change.increments : [:],
            subtrees: subtrees)
    }

    /// The view's update for a transaction's shown parts, whose fields `forEachPart` visits in participant order
    /// (`count` of them), with `restored` (spine parts that snapshots being shown hold); nil when there are no parts.
    /// Their subtrees go with it only when every part is shown in its shard's order and none sets the spine; the
    /// parts' bare `increments` are asked for only when the subtrees do not go along.
    private static func update(
        parts count: Int, adding restored: [[ResolvedMutation]] = [], isInOrder: Bool,
        forEachPart: ((PartFields) -> Void) -> Void, increments: () -> [Path: LeafValue]
    ) -> Update? {
        var namespace: String?
        var mutations: [[ResolvedMutation]] = []
        mutations.reserveCapacity(count + restored.count)
        // Joined while every part so far carries its subtrees; nil once one does not, or when they cannot go along.
        var subtrees: [ShardSubtree]? = isInOrder && restored.isEmpty ? [] : nil
        var spineValues: [Path: Node] = [:]
        forEachPart { part in
            if namespace == nil { namespace = part.namespace }
            mutations.append(part.mutations)
            if let carried = part.subtrees, subtrees != nil {
                // Sized once, from the first part's: appended part by part, the array grew (a second allocation and
                // a copy) for every star.
                if subtrees?.isEmpty == true { subtrees?.reserveCapacity(count * carried.count) }
                // One at a time: appended as a collection, each was copied by the runtime's generic array copy (a
                // call of the type's copy witness per subtree).
                for subtree in carried { subtrees?.append(subtree) }
            } else {
                subtrees = nil
            }
            if spineValues.isEmpty { spineValues = part.spineValues }
        }
        guard let namespace else { return nil }
        mutations += restored
        // Only a view that applies the mutations itself adds the increments; one given the subtrees never reads them.
        return Update(
            namespace: namespace, parts: mutations, spineValues: spineValues,
            increments: subtrees == nil ? increments() : [:], subtrees: subtrees)
    }

    /// Forgets the transaction's prepared part in `shard`. A part committed at once (a star's) was never prepared:
    /// with nothing prepared in the shard, the identifier is not hashed (removing a key hashes it even from an empty
    /// dictionary).
    private mutating func finishBookkeeping(_ transaction: TransactionID, shard: Int) {
        guard !self.intents[shard].isEmpty else { return }
        self.intents[shard][transaction] = nil
    }

    /// True when the transaction's prepare is still queued before entry `index` of `shard` (it waited behind a
    /// snapshot): the finish follows it, so the bookkeeping of the two stays in order.
    private func waitsForPrepare(_ transaction: TransactionID, shard: Int, index: UInt64) -> Bool {
        guard let prepare = self.queuedPrepares[shard][transaction] else { return false }
        return prepare < index
    }

    /// True when an earlier entry still queued in `shard` changes a path overlapping `change` (bare increments of
    /// one counter commute, so they do not hold each other up), or a transaction held by the shard's snapshot sets
    /// a spine path overlapping it.
    private func waitsBehind(shard: Int, index: UInt64, change: ShardChange) -> Bool {
        if self.waitsForHeldTransaction(shard: shard, change: change) { return true }
        return self.queuedPaths[shard].blocks(change, at: index)
    }

    /// The change a queued entry makes to the view: a write's, or a transaction part's.
    static func change(of applied: ShardApplied) -> ShardChange? {
        switch applied.effect {
        case .write(let change): change
        case .finished(_, _, let part?): part.change
        default: nil
        }
    }

    /// The most mutations `merge` orders by insertion; more are flattened and sorted (insertion is quadratic in the
    /// number of interleaved mutations). Both give the stable sort's order.
    static let insertionMergeLimit = 32

    /// One transaction's mutations from its parts: a spine path is written by every shard, each with its own
    /// subtrees and the same spine copy, so its parts are joined (or, when `spineValues` holds the whole value the
    /// parts were cut from, that value is taken as is); shallower paths apply first.
    static func merge(_ parts: [[ResolvedMutation]], spineValues: [Path: Node] = [:]) -> [ResolvedMutation] {
        // A star's answer and its view update each pass through here. A few mutations (a star has four) are each
        // copied once, into their place in an array sized for them all; flattened and then sorted, the array grew
        // part by part and the sort copied mutations again as it moved them. Insertion costs a comparison per pair
        // of interleaved mutations, so a large write (a PATCH of many members over several shards) is sorted.
        let total = parts.reduce(0) { $0 + $1.count }
        var ordered: [ResolvedMutation] = []
        if total <= Self.insertionMergeLimit {
            ordered.reserveCapacity(total)
            for part in parts.indices {
                for index in parts[part].indices {
                    var position = ordered.count
                    while position > 0, Self.applyOrder(parts[part][index], ordered[position - 1]) { position -= 1 }
                    ordered.insert(parts[part][index], at: position)
                }
            }
        } else {
            ordered = parts.flatMap { $0 }
            ordered.sort(by: Self.applyOrder)
        }
        // Sorted, a path written twice sits next to itself: without one, the mutations apply as they are.
        if !ordered.indices.dropFirst().contains(where: { Self.samePath(ordered[$0 - 1], ordered[$0]) }) {
            return ordered
        }
        var sets: [Path: [Node]] = [:]
        var priorities: [Path: Priority?] = [:]
        for part in parts {
            for mutation in part {
                switch mutation {
                case .set(let path, let node): sets[path, default: []].append(node)
                case .setPriority(let path, let priority): priorities[path] = priority
                }
            }
        }
        var merged: [ResolvedMutation] = sets.map { .set($0.key, spineValues[$0.key] ?? Node.union($0.value)) }
        merged += priorities.map { .setPriority($0.key, $0.value) }
        return merged.sorted(by: Self.applyOrder)
    }

    /// Shallower paths first (a spine write before the writes below it), then path order; a value before its
    /// priority.
    /// Borrowing: reads each path where its mutation is held (`TreeEdit.path`, or a match on a copy, copied it out).
    private static func applyOrder(_ a: borrowing ResolvedMutation, _ b: borrowing ResolvedMutation) -> Bool {
        switch a {
        case .set(let left, _), .setPriority(let left, _):
            switch b {
            case .set(let right, _), .setPriority(let right, _):
                if left.count != right.count { return left.count < right.count }
                // Paths of one depth: the first key that differs decides, by index (a star's answer sorts here).
                for depth in left.keys.indices where left.keys[depth] != right.keys[depth] {
                    return left.keys[depth] < right.keys[depth]
                }
            }
        }
        // A value before its priority (matched by `switch`: an `if case` consumes what it matches).
        switch a {
        case .set:
            switch b {
            case .set: return false
            case .setPriority: return true
            }
        case .setPriority: return false
        }
    }

    /// Whether `a` and `b` edit the same path, read where each mutation is held.
    private static func samePath(_ a: borrowing ResolvedMutation, _ b: borrowing ResolvedMutation) -> Bool {
        switch a {
        case .set(let left, _), .setPriority(let left, _):
            switch b {
            case .set(let right, _), .setPriority(let right, _): left == right
            }
        }
    }
}
