/// The four-bit frame type of RFC 6455 §5.2, so frame code never passes raw nibbles around.
///
/// Only the six opcodes RFC 6455 defines are representable; the parser rejects the reserved ones (3–7, 11–15) with
/// close code 1002 before a `WebSocketOpcode` is ever made.
public enum WebSocketOpcode: UInt8, Sendable, Hashable, CaseIterable {
    case continuation = 0x0
    case text = 0x1
    case binary = 0x2
    case close = 0x8
    case ping = 0x9
    case pong = 0xA

    /// Whether this is a control frame (close, ping, pong): payload at most 125 bytes, never fragmented, and allowed
    /// between the fragments of a data message.
    public var isControl: Bool {
        self.rawValue & 0x8 != 0
    }
}
