/// One logged change: its log sequence number and the caller's opaque payload.
public struct WALRecord: Sendable, Hashable {
    /// The record's position in the log: LSNs start at 1 and are dense.
    public let lsn: UInt64
    /// The caller's bytes, returned unchanged by `replay`.
    public let payload: [UInt8]
    /// Where `replay` read the record: its segment file and the byte offset of its frame, so a caller that cannot
    /// use the payload can say exactly where it lies. `nil` for records that did not come from disk.
    public let location: (segment: String, offset: Int)?

    /// Makes a record; the log assigns LSNs, so callers build these only in tests.
    public init(lsn: UInt64, payload: [UInt8], location: (segment: String, offset: Int)? = nil) {
        self.lsn = lsn
        self.payload = payload
        self.location = location
    }

    /// Records are equal when their LSNs and payloads are: where one was read from is not part of it.
    public static func == (lhs: WALRecord, rhs: WALRecord) -> Bool {
        lhs.lsn == rhs.lsn && lhs.payload == rhs.payload
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(self.lsn)
        hasher.combine(self.payload)
    }
}
