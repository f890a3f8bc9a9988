import HearthNet
import HearthWire

/// One outbound wire message with its WebSocket frames, made once: a push that many sessions send (a change at a
/// location they all listen to, see `SharedListenGroup`) is split and framed once, and every WebSocket queues the
/// same frames, sharing their storage.
final class WireOutbound: Sendable {
    let message: [UInt8]
    /// The unmasked WebSocket text frames of the message (count-prefixed when it is long, reference §1.2), or `nil`
    /// when it needs more frames than clients accept.
    let webSocketFrames: [[UInt8]]?

    init(_ message: [UInt8]) {
        self.message = message
        // A message that fits one frame (every acknowledgement, most pushes) is framed from its bytes as they are:
        // the server's encoder wrote valid UTF-8, the very bytes the splitter's one frame would hold.
        self.webSocketFrames =
            message.count <= WireFrameSplitter.maximumFrameBytes
            ? [WebSocketFrameEncoder.encodeText(utf8: message)]
            : WireFrameSplitter.frames(message).map { $0.map(WebSocketFrameEncoder.encodeText) }
    }
}
