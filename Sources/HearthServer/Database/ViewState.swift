public import HearthCore

/// The read view's data as a value: every namespace's root, fed by the shards' committed entries through a
/// `CommitFeed`. The live view keeps one under its lock; recovery builds one by replaying the log.
struct ViewState {
    var roots: [String: Node]
    var feed: CommitFeed
    /// How many changes have been applied (the sequence number of the newest).
    var sequence: UInt64 = 0
    /// Every log record up to this sequence number has been received.
    var logSequence: UInt64 = 0

    /// Takes committed entries in commit order and applies every change that became ready.
    /// - Parameter registry: the listeners; a change that touches none of them is applied in place and not returned,
    ///   since only listeners need the roots before and after it.
    /// - Returns: each change some listener hears, with those listeners.
    mutating func receive(_ batch: [ShardApplied], registry: ListenRegistry = ListenRegistry())
        -> [(change: CommittedChange, listeners: [any ChangeListener])]
    {
        var heard: [(change: CommittedChange, listeners: [any ChangeListener])] = []
        for applied in batch {
            for update in self.feed.receive(applied) {
                let listeners = registry.listeners(
                    namespace: update.namespace, touching: update.mutations.map(\.path))
                if let change = self.apply(update, keepingOldRoot: !listeners.isEmpty) {
                    heard.append((change, listeners))
                }
            }
        }
        return heard
    }

    /// Applies one ready update. The root is edited in place unless `keepingOldRoot`, when the old root stays as it
    /// was for the returned change (nodes shared with it, or with readers, are copied as usual).
    private mutating func apply(_ update: CommitFeed.Update, keepingOldRoot: Bool) -> CommittedChange? {
        var root = self.roots.removeValue(forKey: update.namespace) ?? .empty
        let old = keepingOldRoot ? root : .empty
        var mutations = update.mutations
        if !update.increments.isEmpty {
            mutations = mutations.map { mutation in
                guard case .set(let path, _) = mutation, let delta = update.increments[path] else { return mutation }
                return .set(
                    path, Node(ServerValue.increment(delta).resolved(current: root.node(at: path).leafValue, now: 0)))
            }
        }
        for mutation in mutations { mutation.apply(to: &root) }
        self.roots[update.namespace] = root.isEmpty ? nil : root
        self.sequence += 1
        guard keepingOldRoot else { return nil }
        return CommittedChange(
            namespace: update.namespace, mutations: mutations, sequence: self.sequence, oldRoot: old, newRoot: root)
    }

    /// What a snapshot stores, when the view is a consistent cut (no transaction half shown); nil otherwise.
    func capture() -> ViewSnapshot? {
        guard self.feed.isQuiescent else { return nil }
        return ViewSnapshot(
            sequence: self.logSequence, roots: self.roots, appliedIndex: self.feed.appliedIndex,
            intents: self.feed.intents,
            decisions: self.feed.decisions)
    }
}

/// Everything recovery needs to resume from a point of the log: the view's roots, where each shard's log stands,
/// and the transactions still prepared there (with the decisions they may need).
struct ViewSnapshot: Sendable {
    /// Every log record up to this sequence number is reflected.
    var sequence: UInt64
    var roots: [String: Node]
    var appliedIndex: [UInt64]
    var intents: [[TransactionID: ShardIntent]]
    var decisions: [[TransactionID: Bool]]
}
