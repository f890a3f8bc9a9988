/// How a `WriteAheadLog` writes: fsync policy, segment size and group-commit window.
public struct WALConfiguration: Sendable {
    /// The fsync policy; `.batch` by default.
    public var fsync: FsyncMode = .batch
    /// A segment that has grown past this many bytes is closed and the next record starts a new segment file.
    public var segmentBytes: Int = 64 * 1024 * 1024
    /// With `.batch`, how long the oldest pending record may wait for company before the batch is written.
    public var batchWindowMicroseconds: Int = 500
    /// With `.batch`, a batch is written at once when this many payload bytes are pending, window or not.
    public var batchMaximumBytes: Int = 4 * 1024 * 1024
    /// Who writes the records: a dedicated thread unless a simulation drives the log by hand.
    public var writer: WALWriterMode = .dedicatedThread

    /// The defaults: `.batch` fsync, 64 MiB segments, a 500 µs batch window.
    public init() {}
}
