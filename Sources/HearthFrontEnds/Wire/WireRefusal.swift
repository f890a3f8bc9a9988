import HearthNet
import HearthWire

/// Answers a realtime connection that can never succeed (an invalid namespace) the way Firebase does: accept the
/// WebSocket, send the `s` (shutdown) control message with the reason, and close. Clients log the reason and stop
/// reconnecting, where a refused upgrade would make them retry forever.
struct WireRefusal: WebSocketMessageHandler {
    let reason: String

    func opened(_ socket: WebSocketConnection) {
        socket.send(text: String(decoding: WireServerMessage.shutdown(reason: self.reason).encoded(), as: UTF8.self))
        socket.close(code: WebSocketCloseCode.policyViolation, reason: "Connection refused.")
    }

    func received(text: String) {}
    func received(binary: [UInt8]) {}
    func closed(code: UInt16?, reason: String) {}
}
