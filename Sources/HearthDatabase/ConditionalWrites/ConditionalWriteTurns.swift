package import HearthCluster

/// Where compare-and-sets take turns: this node's `ConditionalWriteGate` on a single node; on a cluster, the gate of
/// the node leading the location's shard (`ClusterConditionalWriteTurns`), so that callers of every node contending
/// for one location share one line instead of each node's line racing the others'.
///
/// Turns only decide who goes first: a compare-and-set stays correct without one, so a turn that cannot be had (the
/// leader is unreachable) is simply skipped.
package protocol ConditionalWriteTurns: Sendable {
    /// Waits until the compare-and-set expecting `etag` at `target` may write; returns the turn to end.
    func admit(connection: UInt64, target: ConditionalWriteScheduler.Target, etag: String) async
        -> ConditionalWriteTurn
    /// Reports how the compare-and-set that held `turn` ended, letting the next in line write.
    func answered(_ turn: ConditionalWriteTurn, _ answer: ConditionalWriteScheduler.Answer)
    /// Notes an ETag read, the first step of a new transaction.
    func read(connection: UInt64, target: ConditionalWriteScheduler.Target)
    /// Forgets a closed connection.
    func connectionClosed(_ connection: UInt64)
}

/// A compare-and-set's place in a line, to be ended with its answer.
package enum ConditionalWriteTurn: Sendable, Equatable {
    /// Request `id` of this node's gate.
    case local(UInt64)
    /// Request `id` of the gate of `node`, which led the location's shard.
    case remote(UInt64, NodeID)
    /// The compare-and-set runs without a turn (the gate that keeps its line could not be reached).
    case skipped
}
