import HearthCore

/// Rebuilds the read view and every shard's state machine from the newest snapshot and the log after it.
///
/// Each shard's entries are applied through its state machine (exactly as when they were first appended), and
/// what they change goes through a `CommitFeed` into the recovered view, so recovery and live operation share one
/// code path. Records written before shards had logs of their own are applied to the roots first (they always
/// precede shard entries). A gap in a shard's indexes, or a record that cannot be decoded, stops recovery.
struct Recovery {
    let router: ShardRouter
    var roots: [String: Node]
    private var appliedIndex: [UInt64]
    private var intents: [[TransactionID: ShardIntent]]
    private var decisions: [[TransactionID: Bool]]
    private var sessions: [WriteSessions]
    private(set) var machines: [ShardStateMachine]?
    private var view: ViewState?
    private(set) var replayed = 0

    init(router: ShardRouter, snapshot: SnapshotContent.Decoded?) {
        self.router = router
        self.roots = snapshot?.roots ?? [:]
        let shards = 0..<router.shardCount
        self.appliedIndex = shards.map { snapshot?.appliedIndex[$0] ?? 0 }
        self.intents = shards.map { snapshot?.intents[$0] ?? [:] }
        self.decisions = shards.map { snapshot?.decisions[$0] ?? [:] }
        self.sessions = shards.map { snapshot?.sessions[$0] ?? WriteSessions() }
    }

    /// Applies one record read from the log after the snapshot.
    mutating func replay(_ record: ShardLogRecord, sequence: UInt64) throws {
        self.replayed += 1
        switch record {
        case .legacy(let legacy):
            guard self.machines == nil else {
                throw CommitRecordError("record \(sequence) is in the old format but follows shard entries")
            }
            var root = self.roots[legacy.namespace] ?? .empty
            for mutation in legacy.mutations { mutation.apply(to: &root) }
            self.roots[legacy.namespace] = root.isEmpty ? nil : root
        case .entry, .entries:
            self.buildMachines()
            guard var machines = self.machines, var view = self.view else {
                preconditionFailure("recovery built no state machines")
            }
            var applied: [ShardApplied] = []
            for (shard, index, entry) in record.shardEntries {
                guard shard < machines.count else {
                    throw CommitRecordError(
                        "record \(sequence) names shard \(shard), but this node has \(self.router.shardCount)")
                }
                do {
                    applied.append(try machines[shard].apply(entry, at: index))
                } catch {
                    throw CommitRecordError("record \(sequence) cannot be applied: \(error)")
                }
            }
            _ = view.receive(applied)
            view.logSequence = sequence
            self.machines = machines
            self.view = view
        }
    }

    /// The recovered view and shard state machines.
    mutating func finish(sequence: UInt64) -> (view: ViewState, machines: [ShardStateMachine]) {
        self.buildMachines()
        guard var view = self.view, let machines = self.machines else {
            preconditionFailure("recovery built no state machines")
        }
        view.logSequence = max(view.logSequence, sequence)
        return (view, machines)
    }

    /// Cuts the roots into shards the first time a shard entry (or the end of the log) is reached.
    private mutating func buildMachines() {
        guard self.machines == nil else { return }
        var trees = [[String: Node]](repeating: [:], count: self.router.shardCount)
        for (namespace, root) in self.roots {
            for (shard, tree) in self.router.split(root, namespace: namespace).enumerated() where !tree.isEmpty {
                trees[shard][namespace] = tree
            }
        }
        self.machines = (0..<self.router.shardCount).map { shard in
            ShardStateMachine(
                shard: shard, spineDepth: self.router.shardDepth, trees: trees[shard],
                index: self.appliedIndex[shard], intents: self.intents[shard], roots: self.roots,
                sessions: self.sessions[shard])
        }
        let feed = CommitFeed(
            appliedIndex: self.appliedIndex, intents: self.intents, decisions: self.decisions, sessions: self.sessions)
        self.view = ViewState(roots: self.roots, feed: feed)
    }
}
