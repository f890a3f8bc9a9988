/// How a `WriteAheadLog` writes: fsync policy, segment size and group-commit window.
public struct WALConfiguration: Sendable {
    /// The fsync policy; `.batch` by default.
    public var fsync: FsyncMode = .batch
    /// A segment that has grown past this many bytes is closed and the next record starts a new segment file.
    public var segmentBytes: Int = 64 * 1024 * 1024
    /// With `.batch`, how long the oldest pending record may wait for company before the batch is written, while
    /// writes arrive together (the last batch held more than one record); a batch that holds as many records as the
    /// last one is written at once, and a record after a batch of one is written at once. 1.5 ms: on a 3-node cluster sharing two cores and a disk, each fsync costs CPU the nodes need (the
    /// disk's doorbell, the writer's wake-ups), and a 1.5 ms window against 0.5 ms cut node CPU per star by 7–15 %
    /// and p99 by about a third (docs/benchmarks.md, session 19); Raft pipelines through the wait.
    public var batchWindowMicroseconds: Int = 1500
    /// With `.batch`, a batch is written at once when this many payload bytes are pending, window or not.
    public var batchMaximumBytes: Int = 4 * 1024 * 1024
    /// Who writes the records: a dedicated thread unless a simulation drives the log by hand.
    public var writer: WALWriterMode = .dedicatedThread

    /// The defaults: `.batch` fsync, 64 MiB segments, a 1.5 ms batch window.
    public init() {}
}
