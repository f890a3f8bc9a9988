/// Counters describing what the log's writer has done since the log was opened.
public struct WALStatistics: Sendable, Hashable {
    /// fsync/fdatasync calls on segment files.
    public var fsyncs: UInt64 = 0
    /// Nanoseconds spent in those calls, summed: with `fsyncs`, the disk's average sync latency.
    public var fsyncNanoseconds: UInt64 = 0
    /// Batches written (each is one or a few `write` calls).
    public var batches: UInt64 = 0
    /// Records written.
    public var records: UInt64 = 0
    /// Bytes written, framing included.
    public var bytes: UInt64 = 0
    /// Zeros written ahead of the segments' ends (`WALConfiguration.zeroAheadBytes`).
    public var zeroedBytes: UInt64 = 0

    /// All counters at zero.
    public init() {}
}
