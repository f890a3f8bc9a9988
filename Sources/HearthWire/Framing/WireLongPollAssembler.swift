import HearthCore

/// Reassembles the messages a long-polling client sends (reference §1.12), and cuts them the way the client does.
///
/// A browser on the `/.lp` transport sends each message as its UTF-8 JSON in web-safe base64 (`-`, `_`, padding
/// `.`), cut into segments numbered across the whole session; each segment says how many segments its message
/// took (`ts`). Requests carrying segments can arrive out of order, so segments are filed by number and a message
/// is released once it and every message before it are complete. A pure value: no I/O, fed one segment at a time.
public struct WireLongPollAssembler: Sendable {
    /// The longest segment the JavaScript SDK sends.
    public static let maximumSegmentLength = 1840

    /// One segment of a message as it travels in a poll's query (`seg<i>`, `ts<i>`, `d<i>`).
    public struct Segment: Sendable, Hashable {
        public var number: Int
        public var total: Int
        public var data: String

        public init(number: Int, total: Int, data: String) {
            self.number = number
            self.total = total
            self.data = data
        }
    }

    private var segments: [Int: (total: Int, data: String)] = [:]
    private var nextSegment = 0

    public init() {}

    /// Files one segment; returns the messages it completes, in order.
    /// - Throws: `WireProtocolError` `.malformedFrame` when a completed message is not web-safe base64.
    /// - Complexity: O(n) in the length of the messages completed.
    public mutating func receive(_ segment: Segment) throws(WireProtocolError) -> [String] {
        self.segments[segment.number] = (segment.total, segment.data)
        var messages: [String] = []
        while let first = self.segments[self.nextSegment] {
            let range = self.nextSegment..<(self.nextSegment + max(first.total, 1))
            guard range.allSatisfy({ self.segments[$0] != nil }) else { break }
            let encoded = range.compactMap { self.segments.removeValue(forKey: $0)?.data }.joined()
            self.nextSegment = range.upperBound
            let standard = String(encoded.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 == "." ? "=" : $0 })
            guard let bytes = Base64.decode(standard) else {
                throw WireProtocolError(.malformedFrame, "A long-poll segment is not web-safe base64.")
            }
            messages.append(String(decoding: bytes, as: UTF8.self))
        }
        return messages
    }

    /// The segments for `message`, numbered from `firstNumber`, as a client sends them.
    /// - Complexity: O(n) in the message's length.
    public static func segments(
        for message: String, firstNumber: Int, maximumLength: Int = Self.maximumSegmentLength
    ) -> [Segment] {
        let encoded = Array(
            Base64.encode(Array(message.utf8)).map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 == "=" ? "." : $0 })
        let length = max(maximumLength, 1)
        let pieces = stride(from: 0, to: max(encoded.count, 1), by: length).map {
            String(encoded[$0..<min($0 + length, encoded.count)])
        }
        return pieces.enumerated().map {
            Segment(number: firstNumber + $0.offset, total: pieces.count, data: $0.element)
        }
    }
}
