/// Cuts outbound wire messages into WebSocket text frames the official clients can read (reference §1.2).
///
/// A message of at most `maximumFrameBytes` UTF-8 bytes goes out as one frame. A longer one becomes a count frame
/// then that many frames, cut only between Unicode scalars so each frame is valid UTF-8. The bound is in UTF-8
/// bytes, which is never fewer than the UTF-16 units or characters clients count, so every client's 16384 limit
/// holds. The count frame is never `"0"` and never above 9999 (the most iOS can read).
public enum WireFrameSplitter {
    /// Largest frame payload sent, in UTF-8 bytes.
    public static let maximumFrameBytes = 16384
    /// Most frames one message may take.
    public static let maximumFrameCount = 9999
    /// The largest message worth sending: what fits the most frames after the count frame, with room to spare.
    public static let maximumMessageBytes = maximumFrameBytes * (maximumFrameCount - 1)

    /// The frames for one message, or `nil` when it would need more than `maximumFrameCount` frames.
    /// - Complexity: O(n) in the message's UTF-8 length.
    public static func frames(_ message: [UInt8], maximumFrameBytes: Int = Self.maximumFrameBytes) -> [String]? {
        guard message.count > maximumFrameBytes else { return [String(decoding: message, as: UTF8.self)] }
        var chunks: [String] = []
        var start = 0
        while start < message.count {
            var end = min(start + maximumFrameBytes, message.count)
            while end < message.count, end > start + 1, Self.isContinuation(message[end]) { end -= 1 }
            chunks.append(String(decoding: message[start..<end], as: UTF8.self))
            guard chunks.count <= Self.maximumFrameCount else { return nil }
            start = end
        }
        return ["\(chunks.count)"] + chunks
    }

    private static func isContinuation(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }
}
