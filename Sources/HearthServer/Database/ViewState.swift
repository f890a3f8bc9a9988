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
    mutating func receive(_ batch: [ShardApplied]) -> [CommittedChange] {
        var changes: [CommittedChange] = []
        for applied in batch {
            for update in self.feed.receive(applied) {
                changes.append(self.apply(update))
            }
        }
        return changes
    }

    private mutating func apply(_ update: CommitFeed.Update) -> CommittedChange {
        let old = self.roots[update.namespace] ?? .empty
        var new = old
        var mutations = update.mutations
        if !update.increments.isEmpty {
            mutations = mutations.map { mutation in
                guard case .set(let path, _) = mutation, let delta = update.increments[path] else { return mutation }
                return .set(
                    path, Node(ServerValue.increment(delta).resolved(current: old.node(at: path).leafValue, now: 0)))
            }
        }
        for mutation in mutations { new = mutation.apply(to: new) }
        self.roots[update.namespace] = new.isEmpty ? nil : new
        self.sequence += 1
        return CommittedChange(
            namespace: update.namespace, mutations: mutations, sequence: self.sequence, oldRoot: old, newRoot: new)
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
