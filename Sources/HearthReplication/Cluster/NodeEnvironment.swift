import HearthCluster
import HearthStorage
import HearthSystem

/// What a cluster node's database runs on: its clock, its disk, where its tasks run, who writes its log, and where
/// its transaction ids come from. The real machine by default; a deterministic simulation substitutes every one of
/// them, so a whole cluster runs on one thread, under one seed.
struct NodeEnvironment: Sendable {
    /// What timers sleep on and deadlines are measured against.
    var clock: any NodeClock = .system
    /// The disk the write-ahead log and the snapshots live on.
    var fileSystem: any FileSystem = PosixFileSystem()
    /// Where tasks the node starts on its own (shard calls from peers) run; nil: the default pool.
    var executor: (any TaskExecutor)?
    /// Who writes the write-ahead log.
    var walWriter: WALWriterMode = .dedicatedThread
    /// Where the coordinator's transaction ids come from.
    var random: any RandomNumberGenerator & Sendable = SystemRandomNumberGenerator()
    /// Sees every batch of entries a group hands to its shard, in order, before the shard applies them (a
    /// simulation checks that replicas apply the same sequences).
    var onCommitted: (@Sendable (RaftGroupID, [RaftEntry]) -> Void)?
    /// Sees the write-ahead log as soon as it is opened (with `WALWriterMode.manual`, a simulation must write it
    /// while the node is still recovering).
    var onLogOpened: (@Sendable (WriteAheadLog) -> Void)?

    /// The real machine.
    static var system: NodeEnvironment { NodeEnvironment() }
}
