/// One logged change: its log sequence number and the caller's opaque payload.
public struct WALRecord: Sendable, Hashable {
    /// The record's position in the log: LSNs start at 1 and are dense.
    public let lsn: UInt64
    /// The caller's bytes, returned unchanged by `onDurable` and `replay`.
    public let payload: [UInt8]

    /// Makes a record; the log assigns LSNs, so callers build these only in tests.
    public init(lsn: UInt64, payload: [UInt8]) {
        self.lsn = lsn
        self.payload = payload
    }
}
