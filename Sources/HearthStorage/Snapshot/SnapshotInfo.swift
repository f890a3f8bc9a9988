/// A complete snapshot on disk, as found by `SnapshotStore.latest()`.
public struct SnapshotInfo: Sendable, Hashable {
    /// The snapshot covers the log through this LSN: recovery replays the records after it.
    public let lsn: UInt64
    /// The snapshot file.
    public let path: String
    /// The file's size in bytes, framing included.
    public let size: Int

    /// Describes a snapshot file; `SnapshotStore.latest()` builds these.
    public init(lsn: UInt64, path: String, size: Int) {
        self.lsn = lsn
        self.path = path
        self.size = size
    }
}
