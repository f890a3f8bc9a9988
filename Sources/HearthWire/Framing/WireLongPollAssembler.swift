import HearthCore

/// Reassembles the messages a long-polling client sends (reference §1.12), and cuts them the way the client does.
///
/// A browser on the `/.lp` transport sends each message as its UTF-8 JSON in web-safe base64 (`-`, `_`, padding
/// `.`), cut into segments numbered across the whole session; each segment says how many segments its message
/// took (`ts`). Requests carrying segments can arrive out of order, so segments are filed by number and a message
/// is released once it and every message before it are complete. A pure value: no I/O, fed one segment at a time.
///
/// Everything a client can make it hold is bounded. A segment is taken only within `window` numbers of the first
/// one still missing (the JavaScript SDK has at most two requests in flight, so it is never more than a few
/// ahead); a message may span at most `maximumSegmentsPerMessage` segments and decode to at most
/// `maximumMessageBytes`; and the segments held never pass `maximumHeldBytes`. Numbers are compared, never added
/// to, so no number a client sends can overflow. Each segment is filed, joined and dropped once: the work is linear
/// in what arrives.
public struct WireLongPollAssembler: Sendable {
    /// The longest segment the JavaScript SDK sends.
    public static let maximumSegmentLength = 1840
    /// How far past the first missing segment a segment may be numbered, by default.
    public static let defaultWindow = 64
    /// What filing one segment costs beyond its data (its number, total and table slot), counted in `heldBytes`.
    static let segmentOverheadBytes = 64

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

    /// Largest message accepted, in UTF-8 bytes once decoded (`--max-message-bytes`).
    public let maximumMessageBytes: Int
    /// How many numbers past the first missing segment are accepted.
    public let window: Int
    /// The most segments one message may span: its largest encoding cut into segments of the length the client
    /// uses.
    public let maximumSegmentsPerMessage: Int
    /// The most bytes of segments held at once: one largest message plus a full window of segments.
    public let maximumHeldBytes: Int
    /// Bytes of the segments held now (data plus `segmentOverheadBytes` each).
    public private(set) var heldBytes = 0

    private var segments: [Int: (total: Int, data: String)] = [:]
    /// The first segment of the first message not yet released.
    private var nextSegment = 0
    /// How many segments from `nextSegment` on have arrived without a gap.
    private var contiguous = 0

    /// - Parameters:
    ///   - maximumMessageBytes: the largest decoded message (`NodeConfiguration.maximumWireMessageBytes`).
    ///   - window: how far past the first missing segment a segment may be numbered.
    ///   - segmentLength: the length the client cuts messages into (the JavaScript SDK's 1840).
    public init(
        maximumMessageBytes: Int, window: Int = Self.defaultWindow, segmentLength: Int = Self.maximumSegmentLength
    ) {
        self.maximumMessageBytes = max(maximumMessageBytes, 1)
        self.window = max(window, 1)
        let length = max(segmentLength, 1)
        let (threes, overflow) = (self.maximumMessageBytes / 3 + 1).multipliedReportingOverflow(by: 4)
        let encoded = overflow ? Int.max : threes
        self.maximumSegmentsPerMessage = encoded / length + 1
        let windowBytes = self.window.multipliedReportingOverflow(by: length + Self.segmentOverheadBytes)
        let perMessage = self.maximumSegmentsPerMessage.multipliedReportingOverflow(by: Self.segmentOverheadBytes)
        let sum = encoded.addingReportingOverflow(windowBytes.partialValue)
        let total = sum.partialValue.addingReportingOverflow(perMessage.partialValue)
        self.maximumHeldBytes =
            windowBytes.overflow || perMessage.overflow || sum.overflow || total.overflow ? Int.max : total.partialValue
    }

    /// Files one segment; returns the messages it completes, in order. A segment of a message already released,
    /// or one already held, is ignored.
    /// - Throws: `WireProtocolError` `.malformedFrame` for a negative number, a total below 1, a number more than
    ///   `window` past the first missing segment, or a completed message that is not web-safe base64;
    ///   `.messageTooBig` for a total above `maximumSegmentsPerMessage`, when the segments held would pass
    ///   `maximumHeldBytes`, or when a message decodes to more than `maximumMessageBytes`.
    /// - Complexity: amortized O(n) in the segment's length plus the length of the messages it completes.
    public mutating func receive(_ segment: Segment) throws(WireProtocolError) -> [String] {
        guard segment.number >= 0 else {
            throw WireProtocolError(.malformedFrame, "A long-poll segment number (seg) must not be negative.")
        }
        guard segment.total >= 1 else {
            throw WireProtocolError(
                .malformedFrame, "A long-poll message (ts) spans at least 1 segment, not \(segment.total).")
        }
        guard segment.total <= self.maximumSegmentsPerMessage else {
            throw WireProtocolError(
                .messageTooBig,
                "A long-poll message (ts) may span at most \(self.maximumSegmentsPerMessage) segments, not "
                    + "\(segment.total): this node takes messages of up to \(self.maximumMessageBytes) bytes.")
        }
        guard segment.number >= self.nextSegment else { return [] }
        // Both are non-negative, so neither subtraction can overflow.
        let offset = segment.number - self.nextSegment
        guard offset - self.contiguous < self.window else {
            throw WireProtocolError(
                .malformedFrame,
                "Long-poll segment \(segment.number) is more than \(self.window) ahead of the next one expected "
                    + "(\(self.nextSegment + self.contiguous)); send segments in order.")
        }
        guard self.segments[segment.number] == nil else { return [] }
        let cost = segment.data.utf8.count + Self.segmentOverheadBytes
        guard cost <= self.maximumHeldBytes - self.heldBytes else {
            throw WireProtocolError(
                .messageTooBig,
                "The long-poll segments waiting to be joined pass this node's limit of \(self.maximumHeldBytes) "
                    + "bytes; send smaller messages.")
        }
        self.segments[segment.number] = (segment.total, segment.data)
        self.heldBytes += cost
        if offset == self.contiguous {
            while self.segments[self.nextSegment + self.contiguous] != nil { self.contiguous += 1 }
        }
        var messages: [String] = []
        while self.contiguous > 0, let first = self.segments[self.nextSegment], first.total <= self.contiguous {
            messages.append(try self.release(segmentCount: first.total))
        }
        return messages
    }

    /// Joins, drops and decodes the `count` segments from `nextSegment` on, which have all arrived.
    private mutating func release(segmentCount count: Int) throws(WireProtocolError) -> String {
        var encoded = ""
        for number in self.nextSegment..<(self.nextSegment + count) {
            guard let segment = self.segments.removeValue(forKey: number) else { continue }
            self.heldBytes -= segment.data.utf8.count + Self.segmentOverheadBytes
            encoded += segment.data
        }
        self.nextSegment += count
        self.contiguous -= count
        let standard = String(encoded.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 == "." ? "=" : $0 })
        guard let bytes = Base64.decode(standard) else {
            throw WireProtocolError(.malformedFrame, "A long-poll segment is not web-safe base64.")
        }
        guard bytes.count <= self.maximumMessageBytes else {
            throw WireProtocolError(
                .messageTooBig,
                "The message is larger than this node's limit of \(self.maximumMessageBytes) bytes; "
                    + "write smaller parts.")
        }
        return String(decoding: bytes, as: UTF8.self)
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
