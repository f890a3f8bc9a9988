package import HearthCore

/// What the anchor did with a transaction's decision.
package enum ShardDecideOutcome: Sendable {
    /// Logged at the position; the anchor's resolved part when it committed.
    case logged(ShardLogPosition, [ResolvedMutation])
    /// The anchor's part lands below a spine leaf: the transaction must rerun over every shard.
    case needsAllShards
    /// The anchor already holds a decision for the transaction (a resolver aborted it, or an earlier attempt
    /// decided); nothing was logged. `at` is where this leader logged that decision when it may not be committed
    /// yet (wait for it before acting on the decision); nil when it is committed.
    case alreadyDecided(commit: Bool, at: ShardLogPosition?)
    /// The anchor already applied the transaction's write (it names an origin the shard remembers): this
    /// transaction is the same write sent again and must abort; the first is committed through `through`.
    case duplicate(through: UInt64)
}

/// What a participant did with a transaction's part.
package enum ShardPrepareOutcome: Sendable {
    /// Logged at the position.
    case prepared(ShardLogPosition)
    /// The part lands below a spine leaf: the transaction must rerun over every shard.
    case needsAllShards
    /// The shard already applied the transaction's write (it names an origin the shard remembers): this
    /// transaction is the same write sent again and must abort; the first is committed through `through`.
    case duplicate(through: UInt64)
}

/// What a transaction's locked read of one shard returned.
package struct ShardReadLock: Sendable {
    /// The shard's data at each path read.
    package var nodes: [Node]
    /// The shard index the read reflects.
    package var through: UInt64
    /// The leader's term when it took the lock (0 on a single node), which the transaction's prepare or decision
    /// in that shard presents.
    package var term: UInt64

    /// Makes the value from its parts: the memberwise initializer, for the modules above this one.
    package init(nodes: [Node], through: UInt64, term: UInt64) {
        self.nodes = nodes
        self.through = through
        self.term = term
    }
}

/// A transaction read a shard under a lock that is gone: the shard's leadership moved since, or the lock expired
/// because the transaction took too long. Nothing was applied; the write can be retried.
package struct ShardReadLockLostError: Error, Sendable, CustomStringConvertible {
    var shard: Int

    /// Makes the value from its parts: the memberwise initializer, for the modules above this one.
    package init(shard: Int) {
        self.shard = shard
    }

    package var description: String {
        "The write was not applied: shard \(self.shard) changed leader (or the write took too long) between reading "
            + "the data it depends on and writing it. Retry it."
    }
}
