/// Who writes a `WriteAheadLog`'s records to its files.
public enum WALWriterMode: Sendable, Equatable {
    /// A dedicated thread, woken by every enqueue (what a node runs).
    case dedicatedThread
    /// Whoever calls `WriteAheadLog.writePending()`, on the caller's thread and never on its own: a deterministic
    /// simulation decides when a node's disk makes progress. There is no batch window: each call writes and syncs
    /// what is pending at that moment.
    case manual
}
