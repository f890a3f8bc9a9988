import HearthNet
import HearthWire
import Synchronization

/// One outbound wire message with its WebSocket frames, made once: a push that many sessions send (a change at a
/// location they all listen to) is split and framed for the first WebSocket that sends it, and every other one
/// queues the same frames, sharing their storage (see `ChangeEncodings`).
final class WireOutbound: Sendable {
    let message: [UInt8]
    /// `nil` until first asked for; then the frames, or `.some(nil)` for a message too large to send.
    private let frames = Mutex<[[UInt8]]??>(nil)

    init(_ message: [UInt8]) {
        self.message = message
    }

    /// The unmasked WebSocket text frames of the message (count-prefixed when it is long, reference §1.2), or `nil`
    /// when it needs more frames than clients accept.
    var webSocketFrames: [[UInt8]]? {
        self.frames.withLock { frames in
            if let made = frames { return made }
            let made = WireFrameSplitter.frames(self.message).map { $0.map(WebSocketFrameEncoder.encodeText) }
            frames = .some(made)
            return made
        }
    }
}
