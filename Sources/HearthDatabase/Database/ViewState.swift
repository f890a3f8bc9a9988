package import HearthCore
import HearthSystem

/// The read view's data as a value: every namespace's root, fed by the shards' committed entries through a
/// `CommitFeed`. The live view keeps one under its lock; recovery builds one by replaying the log.
struct ViewState {
    var roots: [String: Node]
    var feed: CommitFeed
    /// How many changes have been applied (the sequence number of the newest).
    var sequence: UInt64 = 0
    /// Every log record up to this sequence number has been received.
    var logSequence: UInt64 = 0
    /// The live view's maintained query indexes, advanced with every change (none while recovering).
    var indexes: QueryIndexes?
    /// The buffer the feed's updates of a batch go into, kept empty between batches (`CommitFeed.receive(runs:into:)`).
    private var updates: [CommitFeed.Update] = []
    /// Past this many updates, the buffer is let go after its batch rather than kept for the next one (a burst, or
    /// recovery's replay, would otherwise hold its largest batch's worth for the process's life).
    private static let keptUpdates = 4096

    /// A view of `roots` as `feed` has shown them.
    init(roots: [String: Node], feed: CommitFeed, indexes: QueryIndexes? = nil) {
        self.roots = roots
        self.feed = feed
        self.indexes = indexes
    }

    /// Takes committed entries in commit order and applies every change that became ready.
    /// - Parameter registry: the listeners; a change that touches none of them is applied in place and not returned,
    ///   since only listeners need the roots before and after it.
    /// - Returns: each change some listener hears, with those listeners.
    mutating func receive(_ batch: [ShardApplied], registry: ListenRegistry = ListenRegistry())
        -> [(change: CommittedChange, listeners: [any ChangeListener])]
    {
        var updates = self.feed.receive(batch)
        return self.apply(&updates, registry: registry)
    }

    /// `receive(_:registry:)` for runs of entries in commit order (`CommitFeed.receive(runs:into:)`), applied
    /// together.
    mutating func receive(runs: [[ShardApplied]], registry: ListenRegistry)
        -> [(change: CommittedChange, listeners: [any ChangeListener])]
    {
        // Taken out while the batch applies, so the buffer stays unique and is emptied in place after it.
        var updates: [CommitFeed.Update] = []
        swap(&updates, &self.updates)
        let isWhole = self.feed.receive(runs: runs, into: &updates)
        // `apply` takes every update out, leaving the buffer empty with its room.
        let heard = self.apply(&updates, registry: registry, carriesTurns: isWhole)
        if updates.capacity <= Self.keptUpdates { self.updates = updates }
        return heard
    }

    /// Takes a shard's snapshot in place of the entries it covers (`CommitFeed.restore`) and applies every change
    /// that became ready; returns each change some listener hears, with those listeners.
    mutating func restore(_ snapshot: ShardSnapshot, registry: ListenRegistry = ListenRegistry())
        -> [(change: CommittedChange, listeners: [any ChangeListener])]
    {
        var updates = self.feed.restore(snapshot)
        return self.apply(&updates, registry: registry)
    }

    /// Applies `updates` in order, taking each out of the array (left empty, with its room): an update is moved out
    /// rather than copied (a retain and a release of each of its fields per star). The root of the namespace they
    /// edit is taken out of `roots` once for a run of updates to it and put back after the run, and its listeners
    /// are looked up once for the run, not once per update (three hashes of the namespace per star).
    /// - Parameter carriesTurns: every update of the batch was shown at once with its subtrees
    ///   (`CommitFeed.receive(runs:into:)`), so a subtree an update left to a later entry of its turn is carried by
    ///   that entry's update here once that entry has arrived, as `captureTurn` named it; else that is looked up.
    private mutating func apply(
        _ updates: inout [CommitFeed.Update], registry: ListenRegistry, carriesTurns: Bool = false
    ) -> [(change: CommittedChange, listeners: [any ChangeListener])] {
        var heard: [(change: CommittedChange, listeners: [any ChangeListener])] = []
        let takers = carriesTurns ? nil : Self.subtreeTakers(updates)
        // The namespace whose root `root` holds, out of `roots`, and its listeners.
        var held: String?
        var root = Node.empty
        var listening: ListenRegistry.Namespace?
        // Reversed in place (the elements are moved, not copied), so that each is taken from the end in order.
        let count = updates.count
        updates.reverseByMoving()
        while let update = updates.popLast() {
            let position = count - updates.count - 1
            if let restored = update.restored {
                if let namespace = held.take() { self.put(root, namespace: namespace) }
                heard += self.apply(restored, registry: registry)
                continue
            }
            if held != update.namespace {
                if let namespace = held { self.put(root, namespace: namespace) }
                root = self.roots.removeValue(forKey: update.namespace) ?? .empty
                held = update.namespace
                listening = registry.namespace(update.namespace)
            }
            // The paths are read only where someone listens (reading them retains the update's parts).
            let listeners: [any ChangeListener] =
                if let listening, listening.hasListeners { listening.listeners(touching: update.paths) } else { [] }
            let isSuperseded =
                listeners.isEmpty
                && (carriesTurns
                    ? self.isSupersededInTurn(update)
                    : Self.isSuperseded(update, at: position, takers: takers))
            if let change = self.apply(
                update, to: &root, keepingOldRoot: !listeners.isEmpty, isSuperseded: isSuperseded)
            {
                heard.append((change, listeners))
            }
        }
        if let namespace = held { self.put(root, namespace: namespace) }
        return heard
    }

    /// Puts a namespace's root back in `roots` (an empty one leaves them).
    private mutating func put(_ root: Node, namespace: String) {
        self.roots[namespace] = root.isEmpty ? nil : root
    }

    /// Whether every subtree `update` touched without its node is carried by the later entry of its turn that
    /// `captureTurn` named, which has arrived (in a batch shown wholly at once, `apply(_:registry:carriesTurns:)`,
    /// it is then a later update of the same batch): what `isSuperseded` tells, without a look-up.
    private func isSupersededInTurn(_ update: CommitFeed.Update) -> Bool {
        guard update.carriesSubtrees else { return false }
        guard !update.subtreesHaveNodes else { return true }
        return update.allSubtrees { subtree in
            guard subtree.node == nil else { return true }
            guard let (shard, index) = subtree.supersededBy else { return false }
            return index <= self.feed.received[shard]
        }
    }

    /// Per namespace and subtree, the last of `updates` that carries the subtree's node; nil when none of them
    /// lacks a node of a subtree it touched (`ShardSubtree.node`), so none needs looking up.
    private static func subtreeTakers(_ updates: [CommitFeed.Update]) -> [String: [Path: Int]]? {
        guard updates.contains(where: { $0.subtrees?.contains { $0.node == nil } == true }) else { return nil }
        var takers: [String: [Path: Int]] = [:]
        for (position, update) in updates.enumerated() {
            for subtree in update.subtrees ?? [] where subtree.node != nil {
                takers[update.namespace, default: [:]][subtree.path] = position
            }
        }
        return takers
    }

    /// Whether every subtree `update` (at `position` of its batch) touched without its node is carried by a later
    /// update of the batch: a later entry of the same shard's turn, so applied under the same lock before anyone
    /// reads the roots.
    private static func isSuperseded(_ update: CommitFeed.Update, at position: Int, takers: [String: [Path: Int]]?)
        -> Bool
    {
        guard let takers, let subtrees = update.subtrees else { return false }
        return subtrees.allSatisfy { subtree in
            subtree.node != nil || takers[update.namespace]?[subtree.path].map { $0 > position } == true
        }
    }

    /// Puts restored shard parts in place of what every namespace had of those shards: one change per namespace
    /// whose data differs, listing the subtrees, spine leaves and priorities that changed.
    private mutating func apply(_ restored: CommitFeed.RestoredParts, registry: ListenRegistry)
        -> [(change: CommittedChange, listeners: [any ChangeListener])]
    {
        var namespaces = Set(self.roots.keys)
        for trees in restored.parts.values { namespaces.formUnion(trees.keys) }
        var heard: [(change: CommittedChange, listeners: [any ChangeListener])] = []
        for namespace in namespaces.sorted() {
            let old = self.roots[namespace] ?? .empty
            var changes: [ResolvedMutation] = []
            let new = restored.router.replacingParts(
                in: old, with: restored.parts.mapValues { $0[namespace] ?? .empty }, namespace: namespace,
                changes: &changes)
            guard !changes.isEmpty else { continue }
            self.indexes?.drop(namespace: namespace)
            self.roots[namespace] = new.isEmpty ? nil : new
            self.sequence += 1
            let listeners = registry.listeners(namespace: namespace, touching: changes.map(\.path))
            guard !listeners.isEmpty else { continue }
            let change = CommittedChange(
                namespace: namespace, mutations: changes, sequence: self.sequence, oldRoot: old, newRoot: new)
            heard.append((change, listeners))
        }
        return heard
    }

    /// Applies one ready update: puts the shards' subtrees in place when it carries them (the shards resolved and
    /// applied its mutations already, and the view shares their nodes), else applies its mutations, adding its
    /// increments to the view's own values. A subtree it carries without its node (a later entry of its shard's turn
    /// touched it again) is left to that later entry when `isSuperseded` and no index needs this one's state of it;
    /// else the update's mutations, as its shard resolved them in this order, make that state. The root is edited in
    /// place unless `keepingOldRoot`, when the old root stays as it was for the returned change (nodes shared with
    /// it, or with readers, are copied as usual).
    /// - Parameter root: the namespace's root, taken out of `roots` (`apply(_:registry:carriesTurns:)` puts it back).
    private mutating func apply(
        _ update: CommitFeed.Update, to root: inout Node, keepingOldRoot: Bool, isSuperseded: Bool
    ) -> CommittedChange? {
        let old = keepingOldRoot ? root : .empty
        // The paths are read only while some index is kept (reading them retains the update's parts).
        let indexed =
            if let indexes = self.indexes, indexes.keepsAny {
                indexes.touched(update.namespace, paths: update.paths, root: root)
            } else {
                [(QueryIndexes.Location, Node)]()
            }
        // In applying order, asked for only when needed: to apply them, for the query indexes they touch, or for
        // the listeners (`Update.mutations` sorts a transaction's).
        var mutations: [ResolvedMutation]?
        if update.carriesSubtrees {
            if !(isSuperseded && indexed.isEmpty), !update.subtreesHaveNodes {
                let ordered = update.mutations
                for mutation in ordered { mutation.apply(to: &root) }
                mutations = ordered
            }
            update.forEachSubtree { subtree in
                if let node = subtree.node { root.set(node, at: subtree.path) }
            }
        } else {
            let resolved = Self.resolving(update.mutations, increments: update.increments, in: root)
            for mutation in resolved { mutation.apply(to: &root) }
            mutations = resolved
        }
        if !indexed.isEmpty {
            let ordered = mutations ?? update.mutations
            mutations = ordered
            self.indexes?.advance(indexed, root: root, mutations: ordered)
        }
        self.sequence += 1
        guard keepingOldRoot else { return nil }
        return CommittedChange(
            namespace: update.namespace, mutations: mutations ?? update.mutations, sequence: self.sequence,
            oldRoot: old, newRoot: root)
    }

    /// `mutations` with each bare increment's value added to the one `root` holds (commuting increments may reach
    /// the view in another order than their shard applied them).
    private static func resolving(
        _ mutations: [ResolvedMutation], increments: [Path: LeafValue], in root: Node
    ) -> [ResolvedMutation] {
        guard !increments.isEmpty else { return mutations }
        return mutations.map { mutation in
            guard case .set(let path, _) = mutation, let delta = increments[path] else { return mutation }
            return .set(
                path, Node(ServerValue.increment(delta).resolved(current: root.node(at: path).leafValue, now: 0)))
        }
    }

    /// What a snapshot of `shard` holds, cut from the view now, or nil while it cannot be cut
    /// (`CommitFeed.canCutSnapshot`). O(1) but for the pending transactions it checks and the shard's records of
    /// named writes still to record (`CommitFeed.sessions(of:)`); the caller splits the roots.
    mutating func capture(shard: Int) -> ShardCapture? {
        guard self.feed.canCutSnapshot(of: shard) else { return nil }
        let received = self.feed.received
        var cut: [Int: UInt64] = [:]
        for (other, index) in received.enumerated() where other != shard { cut[other] = index }
        return ShardCapture(
            shard: shard, index: received[shard], roots: self.roots, cut: cut, intents: self.feed.intents[shard],
            decisions: self.feed.decisions[shard], sessions: self.feed.sessions(of: shard))
    }

    /// What a snapshot stores, when the view is a consistent cut (no transaction half shown); nil otherwise.
    /// Records the named writes whose records wait (`CommitFeed.sessions()`).
    mutating func capture() -> ViewSnapshot? {
        guard self.feed.isQuiescent else { return nil }
        return ViewSnapshot(
            sequence: self.logSequence, roots: self.roots, appliedIndex: self.feed.appliedIndex,
            intents: self.feed.intents, decisions: self.feed.decisions, sessions: self.feed.sessions())
    }
}

/// One shard's snapshot as the view holds it, before its trees are cut from the roots (`ShardCapture.snapshot`).
package struct ShardCapture: Sendable {
    var shard: Int
    /// Every entry of the shard up to here is shown.
    var index: UInt64
    /// Every namespace's whole root.
    var roots: [String: Node]
    /// Per other shard, how far the view had received its entries.
    var cut: [Int: UInt64]
    var intents: [TransactionID: ShardIntent]
    var decisions: [TransactionID: Bool]
    var sessions: WriteSessions

    /// Makes the value from its parts: the memberwise initializer, for the modules above this one.
    package init(
        shard: Int, index: UInt64, roots: [String: Node], cut: [Int: UInt64], intents: [TransactionID: ShardIntent],
        decisions: [TransactionID: Bool], sessions: WriteSessions
    ) {
        self.shard = shard
        self.index = index
        self.roots = roots
        self.cut = cut
        self.intents = intents
        self.decisions = decisions
        self.sessions = sessions
    }

    /// The shard's snapshot: its part of every root, with the spine marks the whole roots give.
    /// - Complexity: one pass over the spine levels of every root.
    package func snapshot(router: ShardRouter) -> ShardSnapshot {
        var trees: [String: Node] = [:]
        for (namespace, root) in self.roots {
            let part = router.split(root, namespace: namespace)[self.shard]
            if !part.isEmpty { trees[namespace] = part }
        }
        let machine = ShardStateMachine(
            shard: self.shard, spineDepth: router.shardDepth, trees: trees, index: self.index,
            intents: self.intents, roots: self.roots, decisions: self.decisions, sessions: self.sessions)
        return ShardSnapshot(machine: machine, decisions: self.decisions, cut: self.cut)
    }
}

/// Everything recovery needs to resume from a point of the log: the view's roots, where each shard's log stands,
/// and the transactions still prepared there (with the decisions they may need).
package struct ViewSnapshot: Sendable {
    /// Every log record up to this sequence number is reflected.
    var sequence: UInt64
    var roots: [String: Node]
    var appliedIndex: [UInt64]
    var intents: [[TransactionID: ShardIntent]]
    var decisions: [[TransactionID: Bool]]
    /// Per shard: the named writes it applied (`WriteSessions`).
    var sessions: [WriteSessions]
}
