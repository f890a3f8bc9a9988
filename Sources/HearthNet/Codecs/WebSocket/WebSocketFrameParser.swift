/// Turns the bytes of a WebSocket connection into whole messages and control frames (RFC 6455 §5), one chunk at a
/// time, with no sockets involved.
///
/// Feed bytes with `append(_:)` in whatever pieces they arrive, then call `nextEvent()` until it returns `nil`. The
/// output never depends on how the input was split. The parser enforces, in this order for every frame header:
/// RSV bits clear (1002), a defined opcode (1002), masking as the role requires (1002), control frames final and at
/// most 125 bytes (1002), continuations only inside a message and new messages only outside one (1002), minimal
/// length encodings with the 64-bit top bit clear (1002), and the message size limit (1009), which is checked from
/// the header before any of the payload is buffered. Text is validated as UTF-8 while it arrives, across fragments
/// (1007). A close frame needs a valid code (1002) and a UTF-8 reason (1007).
///
/// After a `.close` event the parser ignores everything else the peer sends. After an error it keeps throwing that
/// same error. Memory: the unread input plus the message being assembled, which the size limit bounds.
public struct WebSocketFrameParser: Sendable {
    /// The default cap on one message: 16 MiB, comfortably above Firebase's 16384-character frames.
    public static let defaultMaximumMessageBytes = 16 * 1024 * 1024

    /// The largest message, in bytes summed over its fragments, that the parser accepts.
    public let maximumMessageBytes: Int
    /// `true` on the server, where every client frame must be masked; `false` when parsing a server's frames.
    public let expectsMaskedFrames: Bool

    var state: State = .header
    var input = ReadBuffer()
    /// The data message being assembled, if any: its opcode (text or binary) and unmasked bytes so far.
    var messageOpcode: WebSocketOpcode?
    var message: [UInt8] = []
    var validator = UTF8Validator()
    /// The payload of the control frame being read.
    var control: [UInt8] = []

    /// - Parameters:
    ///   - maximumMessageBytes: the largest message accepted; larger ones fail with 1009.
    ///   - expectsMaskedFrames: `true` for a server reading a client (unmasked frames fail with 1002), `false` for a
    ///     client reading a server (masked frames fail with 1002).
    public init(maximumMessageBytes: Int = Self.defaultMaximumMessageBytes, expectsMaskedFrames: Bool = true) {
        self.maximumMessageBytes = max(0, maximumMessageBytes)
        self.expectsMaskedFrames = expectsMaskedFrames
    }

    /// Bytes received but not yet parsed.
    public var unreadByteCount: Int { self.input.unreadCount }

    /// Bytes held: unread input and the message being reassembled.
    public var heldByteCount: Int { self.input.unreadCount + self.message.count }

    /// Whether a frame or a fragmented message has begun and not ended: the peer owes the rest.
    public var isMidMessage: Bool {
        switch self.state {
        case .header: self.input.unreadCount > 0 || self.messageOpcode != nil
        case .payload: true
        case .closed, .failed: false
        }
    }

    /// Whether the parser has delivered a close frame or failed, so further input is ignored.
    public var isFinished: Bool {
        switch self.state {
        case .header, .payload: false
        case .closed, .failed: true
        }
    }

    /// Queues bytes from the connection. O(n) in `bytes`, amortised.
    public mutating func append(_ bytes: some Collection<UInt8>) {
        guard !self.isFinished else { return }
        self.input.append(bytes)
    }

    /// The next complete event, or `nil` when more bytes are needed (or the peer has closed).
    ///
    /// - Throws: the protocol violation found in the input; the connection must then be closed with its
    ///   `closeCode`. Every later call throws the same error.
    public mutating func nextEvent() throws(WebSocketProtocolError) -> WebSocketEvent? {
        while true {
            switch self.state {
            case .failed(let error):
                throw error
            case .closed:
                self.input.removeAll()
                return nil
            case .header:
                guard let frame = try self.readHeader() else { return nil }
                if let text = try self.wholeTextMessage(frame) { return .text(text) }
                self.state = .payload(frame)
            case .payload(var frame):
                try self.readPayload(of: &frame)
                if frame.remaining > 0 {
                    self.state = .payload(frame)
                    return nil
                }
                self.state = .header
                if let event = try self.finish(frame) {
                    return event
                }
            }
        }
    }

    /// Records `error` as final, drops every buffer, and returns it for throwing.
    mutating func fail(
        _ code: WebSocketProtocolError.Code,
        _ closeCode: UInt16,
        _ message: String
    ) -> WebSocketProtocolError {
        let error = WebSocketProtocolError(code, closeCode: closeCode, message)
        self.state = .failed(error)
        self.input.removeAll()
        self.message = []
        self.control = []
        return error
    }
}

extension WebSocketFrameParser {
    /// Where the parser is inside the byte stream.
    enum State: Sendable {
        /// Waiting for (the rest of) a frame header.
        case header
        /// Reading a frame's payload.
        case payload(Frame)
        /// A close frame was delivered; input is ignored.
        case closed
        /// A protocol error was found; it is thrown again on every call.
        case failed(WebSocketProtocolError)
    }

    /// A frame whose header has been read and whose payload is still (partly) to come.
    struct Frame: Sendable {
        var opcode: WebSocketOpcode
        var isFinal: Bool
        var maskingKey: WebSocketMaskingKey?
        /// Payload bytes not yet read.
        var remaining: Int
        /// Payload bytes already read, which is where the masking key's phase continues.
        var offset = 0
    }
}
