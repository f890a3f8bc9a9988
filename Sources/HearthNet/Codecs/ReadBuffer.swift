/// Bytes a codec has received and not yet consumed: reads go forward from `readIndex`, new bytes go at the end, and
/// the consumed front is dropped once it is both large and at least half the buffer, so appending stays amortised
/// O(1) per byte however the connection splits its reads. The one copy of that rule for the WebSocket and peer
/// frame decoders.
struct ReadBuffer: Sendable {
    /// Every byte held, consumed or not.
    private(set) var bytes: [UInt8] = []
    /// The first byte not consumed yet.
    var readIndex = 0

    /// Bytes received but not consumed yet.
    var unreadCount: Int { self.bytes.count - self.readIndex }

    /// The byte `offset` places past the read position.
    subscript(unread offset: Int) -> UInt8 { self.bytes[self.readIndex + offset] }

    /// Appends `newBytes`, first dropping the consumed front when that pays.
    mutating func append(_ newBytes: some Collection<UInt8>) {
        if self.readIndex == self.bytes.count {
            self.bytes.removeAll(keepingCapacity: true)
            self.readIndex = 0
        } else if self.readIndex >= 4096 && self.readIndex * 2 >= self.bytes.count {
            self.bytes.removeSubrange(0..<self.readIndex)
            self.readIndex = 0
        }
        self.bytes.append(contentsOf: newBytes)
    }

    /// Runs `body` over the next `count` unread bytes, which it may change in place (unmasking a WebSocket payload
    /// where it arrived). `count` must not pass `unreadCount`.
    mutating func withUnsafeMutableUnreadBytes<Result>(
        count: Int, _ body: (UnsafeMutableRawBufferPointer) throws -> Result
    ) rethrows -> Result {
        let range = self.readIndex..<(self.readIndex + count)
        return try self.bytes.withUnsafeMutableBytes { try body(UnsafeMutableRawBufferPointer(rebasing: $0[range])) }
    }

    /// Drops everything (the connection is done with).
    mutating func removeAll() {
        self.bytes = []
        self.readIndex = 0
    }
}
