/// Reassembles inbound wire messages from WebSocket text frames (reference §1.2).
///
/// A client sends a message that fits one frame as that frame. A longer one arrives as a frame holding only the
/// decimal count N, then N frames whose concatenation is the JSON. A lone `"0"` when no message is in progress is
/// the clients' keep-alive and is ignored. The total size of one message is bounded, so a client cannot make the
/// server buffer without limit. A pure value: no I/O, fed one frame at a time.
public struct WireFrameAssembler: Sendable {
    /// The largest count a client may announce; the protocol never needs more (iOS reads at most four digits).
    public static let maximumFrameCount = 9999

    /// Largest message accepted, in UTF-8 bytes.
    public let maximumMessageBytes: Int
    private var expectedFrames = 0
    private var parts: [String] = []
    private var bufferedBytes = 0

    public init(maximumMessageBytes: Int) {
        self.maximumMessageBytes = maximumMessageBytes
    }

    /// Bytes of the frames of the message in progress, held until it completes.
    public var heldBytes: Int { self.bufferedBytes }

    /// Whether a multi-frame message is in progress.
    public var isMidMessage: Bool { self.expectedFrames > 0 }

    /// Takes one text frame; returns a complete message when this frame finishes one.
    ///
    /// - Throws: `WireProtocolError` `.malformedFrame` for a negative or oversized count, `.messageTooBig` when
    ///   the message passes `maximumMessageBytes`.
    /// - Complexity: O(n) in the frame's length; joining a finished message is O(total).
    public mutating func onFrame(_ frame: String) throws(WireProtocolError) -> String? {
        if self.expectedFrames == 0 {
            if let count = Self.count(in: frame) {
                guard count <= Self.maximumFrameCount else {
                    throw WireProtocolError(
                        .malformedFrame, "A message may span at most \(Self.maximumFrameCount) frames, not \(count).")
                }
                self.expectedFrames = count
                self.parts = []
                self.bufferedBytes = 0
                return nil
            }
            try self.checkSize(frame.utf8.count)
            return frame
        }
        self.bufferedBytes += frame.utf8.count
        try self.checkSize(self.bufferedBytes)
        self.parts.append(frame)
        guard self.parts.count == self.expectedFrames else { return nil }
        let message = self.parts.joined()
        self.expectedFrames = 0
        self.parts = []
        self.bufferedBytes = 0
        return message
    }

    /// Whether the frame whose UTF-8 bytes are `frame` is, taken now, a whole message that `onFrame` would return
    /// as it is, changing nothing: no multi-frame message is in progress, it is not a count, and it is within
    /// `maximumMessageBytes`. Any other frame goes through `onFrame` (as a `String`), which says what it is.
    public func isWholeMessage(_ frame: UnsafeBufferPointer<UInt8>) -> Bool {
        self.expectedFrames == 0 && !Self.isCount(frame) && frame.count <= self.maximumMessageBytes
    }

    /// The count in a short all-digit frame (`nil` when the frame is a message); a `"0"` counts zero frames.
    private static func count(in frame: String) -> Int? {
        guard Self.isCount(frame.utf8) else { return nil }
        return Int(frame)
    }

    /// Whether a frame's bytes are a count: one to six decimal digits.
    private static func isCount(_ utf8: some Collection<UInt8>) -> Bool {
        !utf8.isEmpty && utf8.count <= 6 && utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    private func checkSize(_ bytes: Int) throws(WireProtocolError) {
        guard bytes <= self.maximumMessageBytes else {
            throw WireProtocolError(
                .messageTooBig,
                "The message is larger than this node's limit of \(self.maximumMessageBytes) bytes; "
                    + "write smaller parts.")
        }
    }
}
