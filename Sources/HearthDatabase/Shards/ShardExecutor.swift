/// The serial executor shard actors run their commands on: an actor with no state of its own, whose executor the
/// shard actors of a node adopt (`ShardActor.unownedExecutor`).
///
/// Where one log orders every shard, every shard actor adopts the same one, so a command running on one shard may
/// act on the others' machines in the same turn: a transaction's parts are then committed at once, in one log record
/// (`ShardActor.commitTogether`), instead of through a prepare, a decision and a finish. A running single node puts
/// its shards on its write loop instead (`WriteLoop`, a thread of its own); tests and simulations over one log keep
/// this one, which, being a default actor, follows a task's executor preference like any other, so simulations still
/// choose every job. Where each shard has a log of its own (a Raft group per shard), each actor has one of its own
/// and shards run in parallel.
package actor ShardExecutor {
    /// One executor for every shard of `count` when `shared`, else one each.
    static func executors(count: Int, shared: Bool) -> [ShardExecutor] {
        guard shared else { return (0..<count).map { _ in ShardExecutor() } }
        let executor = ShardExecutor()
        return Array(repeating: executor, count: count)
    }
}
