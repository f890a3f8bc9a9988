/// Where `JSONWriter` sends finished chunks of JSON, so a large tree can stream to a file or socket in pieces
/// instead of being built as one giant array.
///
/// Rules for implementers: `write` receives consecutive pieces of one document in order; the bytes are only valid
/// during the call, so copy what you keep. Pieces are at most a little over the writer's chunk size (64 KiB by
/// default), except that a single huge string leaf arrives whole.
public protocol JSONOutput {
    mutating func write(_ bytes: UnsafeRawBufferPointer)
}

/// Appending to a byte array: the simplest output, and a reusable buffer when the caller clears it between uses.
extension Array: JSONOutput where Element == UInt8 {
    public mutating func write(_ bytes: UnsafeRawBufferPointer) {
        self.append(contentsOf: bytes)
    }
}
