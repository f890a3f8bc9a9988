/// When the write-ahead log forces written records to stable storage.
public enum FsyncMode: String, Sendable, CaseIterable {
    /// One fsync per written batch, as soon as the batch is written: lowest latency, most fsyncs.
    case always
    /// Waits up to `WALConfiguration.batchWindowMicroseconds` to gather more records (until the batch is as large as
    /// the last one), then one fsync for all; only while writes arrive together (a lone write is written at once).
    case batch
    /// Never fsyncs while running (only on close): records survive a process crash but not a power loss.
    case off
}
