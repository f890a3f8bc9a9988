/// When a node snapshots a shard and compacts the shard's Raft log: once the log holds `entries` entries or
/// `bytes` bytes of commands since the shard's last snapshot. A snapshot costs a pass over the shard's data, so the
/// thresholds trade that against the memory and disk the log holds and the time a restart spends replaying it.
struct ShardSnapshotPolicy: Sendable {
    /// Entries since the last snapshot that make the next one due.
    var entries: UInt64
    /// Bytes of commands since the last snapshot that make the next one due.
    var bytes: Int
    /// How often the node checks whether its write-ahead log can drop old segments (and asks the groups holding
    /// them back to write their state again, or to snapshot).
    var retentionInterval: Duration
    /// A snapshot with more data than this goes to a lagging replica in chunks of this size, each pulled when the
    /// previous one arrived (`SnapshotTransfers`), so no snapshot meets the peer transport's frame limit.
    var transferChunkBytes: Int

    /// The server's defaults: a snapshot every 10,000 entries or 64 MiB of commands, whichever comes first (etcd's
    /// own default is in the same range), a retention check every 5 seconds, and 1 MiB transfer chunks.
    init(
        entries: UInt64 = 10_000, bytes: Int = 64 << 20, retentionInterval: Duration = .seconds(5),
        transferChunkBytes: Int = 1 << 20
    ) {
        self.entries = entries
        self.bytes = bytes
        self.retentionInterval = retentionInterval
        self.transferChunkBytes = transferChunkBytes
    }

    /// Whether `shard`'s log has grown enough since its last snapshot for the next.
    func isDue(_ shard: RaftShardLog.Shard) -> Bool {
        shard.delivered >= shard.snapshotIndex + self.entries || shard.bytesSinceSnapshot >= self.bytes
    }
}
