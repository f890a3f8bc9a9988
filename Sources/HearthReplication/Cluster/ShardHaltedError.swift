import HearthCluster
import HearthDatabase
import Synchronization

/// A read or write this node refused at once because its replica of the shard stopped applying the shard's log at a
/// committed entry it cannot read or that does not fit the log before it (`RaftApplyHalt`): its copy of the shard is stuck there, so a read would be stale
/// and a write's answer would wait for ever for this node to show it. REST answers 503 with the message, the
/// realtime protocol an `unavailable` status; `/.metrics` counts the refusals
/// (`hearth_shard_halted_refusals_total`).
struct ShardHaltedError: Error, Sendable, CustomStringConvertible {
    var shard: Int
    var halt: RaftApplyHalt

    var description: String {
        "Shard \(self.shard) is unavailable on this node: it stopped applying the shard's log at committed entry "
            + "\(self.halt.index) (term \(self.halt.term)) because \(self.halt.reason). Read and write through a "
            + "node that does not report the shard halted in /.cluster; on this node, \(self.halt.remedy)"
            + (self.halt.cause == .unreadable
                ? "; if every node reports it, upgrade them all to the release that wrote the entry." : ".")
    }
}

extension ShardHaltedError: WriteUnavailableError {}

extension RaftShardLog {
    /// Refuses a read or write of `shard` when this node's replica of it stopped applying (counted).
    /// - Throws: `ShardHaltedError` naming the entry where it stopped and what to do.
    func refuseIfHalted(shard: Int) throws(ShardHaltedError) {
        guard let halt = self.halt(shard: shard) else { return }
        self.haltedRefusals.add(1, ordering: .relaxed)
        throw ShardHaltedError(shard: shard, halt: halt)
    }
}
