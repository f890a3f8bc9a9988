public import HearthCore

/// One shard as a pure state machine: its trees and its prepared transactions.
///
/// No I/O, no clock, no locks, no randomness. A leader turns commands into log entries with `write`, `lock`,
/// `prepare`, `decide` and `finish`: each returns either a decision not to append (blocked by a prepared
/// transaction, a failed compare-and-set) or the entry it appended together with what the entry changed. Every
/// entry, whether a leader just made it, recovery replays it, or (in the cluster) a follower receives it, goes
/// through the same `apply(_:at:)`, so replicas that apply the same entries hold the same trees and hashes.
///
/// The shard's *domain* is every subtree rooted at the shard depth whose path hashes to it, plus the spine's leaves
/// and priorities, which every shard keeps a copy of (see docs/architecture.md, "Shards and the spine").
public struct ShardStateMachine: Sendable {
    public let shard: Int
    /// Paths shallower than this are the spine.
    public let spineDepth: Int
    /// Each namespace's tree after every appended entry.
    public internal(set) var trees: [String: Node] = [:]
    /// The index of the newest entry (0 before the first).
    public internal(set) var lastIndex: UInt64 = 0
    /// Transactions prepared here and not yet finished: their paths are locked. Changed only through
    /// `ShardStateMachine+Locks.swift`, which keeps `locks` in step.
    public internal(set) var intents: [TransactionID: ShardIntent] = [:]
    /// The decisions of transactions this shard anchors, kept until the anchor logs that they may be forgotten
    /// (every part finished): a later decision for the same transaction is refused, so a coordinator's commit and a
    /// resolver's abort can never both win.
    public internal(set) var decisions: [TransactionID: Bool] = [:]
    /// Paths a coordinator locked to read them before preparing (leader memory only, never logged). Changed only
    /// through `ShardStateMachine+Locks.swift`.
    public internal(set) var readLocks: [TransactionID: ShardLock] = [:]
    /// The paths `intents` and `readLocks` hold, indexed for conflict checks.
    var locks = ShardLockTable()
    /// Per namespace: spine nodes that may carry a priority (a superset; see `lacksSpinePriority`).
    public internal(set) var spinePriorities: [String: Set<Path>] = [:]
    /// The named writes applied here, so that one sent again is not applied twice.
    public internal(set) var sessions = WriteSessions()
    /// Whether a write's subtrees (`ShardChange.subtrees`) are left without their nodes, for the write loop to take
    /// once its turn ends (`ShardApplied.captureTurn`), rather than taken as each entry applies: a subtree written
    /// many times in one turn is then shared with the read view once, so the shard copies its path once per turn,
    /// not once per write. Leader memory, never logged: it changes what `apply` hands the view, never the trees.
    var defersSubtrees = false
    /// The subtree paths the latest writes named, reused by the next writes into them (`RecentSubtreePaths`).
    var recentSubtreePaths = RecentSubtreePaths()

    public init(shard: Int, spineDepth: Int) {
        self.shard = shard
        self.spineDepth = spineDepth
    }

    /// Restores a shard from a snapshot taken after entry `index`.
    /// - Parameters:
    ///   - roots: the whole namespace roots the shard's trees were cut from (a node snapshot); the spine
    ///     priorities they hold are the ones this shard must know about (see `spinePriorities`).
    ///   - spinePriorities: marks a shard snapshot kept, added to those `roots` give.
    ///   - decisions: the decisions the shard anchors that are not yet forgotten.
    ///   - sessions: the named writes applied through `index`.
    public init(
        shard: Int, spineDepth: Int, trees: [String: Node], index: UInt64, intents: [TransactionID: ShardIntent],
        roots: [String: Node] = [:], spinePriorities: [String: Set<Path>] = [:],
        decisions: [TransactionID: Bool] = [:], sessions: WriteSessions = WriteSessions()
    ) {
        self.shard = shard
        self.decisions = decisions
        self.sessions = sessions
        self.spineDepth = spineDepth
        self.trees = trees.filter { !$0.value.isEmpty }
        self.lastIndex = index
        for (transaction, intent) in intents { self.addIntent(transaction, intent) }
        self.spinePriorities = spinePriorities.filter { !$0.value.isEmpty }
        for (namespace, root) in roots {
            let marked = Self.prioritisedSpineNodes(in: root, at: .root, spineDepth: spineDepth).map(\.0)
            if !marked.isEmpty { self.spinePriorities[namespace, default: []].formUnion(marked) }
        }
    }

    /// The shard's data at `path`, including every appended entry.
    public func node(namespace: String, at path: Path) -> Node {
        self.tree(of: namespace).node(at: path)
    }
}

/// A transaction prepared in a shard: its part of the write, locked until the decision arrives.
public struct ShardIntent: Sendable {
    public var write: ShardWrite
    public var plan: ShardTransactionPlan
    /// Paths the transaction read and checked (its conditions) that no other write may change before the
    /// decision; held like a read lock, but logged with the prepare so that they outlive a change of leader.
    public var guards: [Path]

    public init(write: ShardWrite, plan: ShardTransactionPlan, guards: [Path] = []) {
        self.write = write
        self.plan = plan
        self.guards = guards
    }
}

/// Paths locked by a coordinator that reads them before it prepares.
public struct ShardLock: Sendable {
    public var namespace: String
    public var paths: [Path]
}
