/// One complete thing a WebSocket peer said, as the frame parser reports it.
///
/// Data messages arrive whole (fragments already joined, text already checked as UTF-8); control frames arrive as
/// soon as they end, even in the middle of a fragmented message.
public enum WebSocketEvent: Sendable, Hashable {
    /// A complete text message, valid UTF-8.
    case text(String)
    /// A complete binary message.
    case binary([UInt8])
    /// A ping; the receiver answers with a pong carrying the same payload.
    case ping([UInt8])
    /// A pong, solicited or not.
    case pong([UInt8])
    /// A close frame. `code` is `nil` when the frame had no body (what RFC 6455 calls 1005, "no status received");
    /// a code present here has already been checked against `WebSocketCloseCode.isValidOnWire`.
    case close(code: UInt16?, reason: String)
}
