/// The application side of one WebSocket: what it hears from a `WebSocketConnection`.
///
/// Rules for implementers: every call comes from the server's reactor thread, one at a time and in order, so none
/// may block (hand work to an actor or task). `opened` comes first; `received` delivers whole messages (pings are
/// answered for you); `closed` comes exactly once and last, with the peer's close code (`nil` when its close frame
/// had no code), the code we failed the connection with (1002, 1007, 1009), or 1006 when the connection dropped
/// without a completed close handshake. No message is delivered after `WebSocketConnection.close(code:reason:)`.
/// The connection lets go of its handler after `closed`, so holding the socket from `opened` creates no leak.
public protocol WebSocketMessageHandler: Sendable {
    func opened(_ socket: WebSocketConnection)
    func received(text: String)
    /// A whole text message as its UTF-8 bytes (valid), which live only for the call: what the realtime path reads
    /// without making a `String`. By default, `received(text:)` of their `String`.
    func received(utf8Text: UnsafeBufferPointer<UInt8>)
    func received(binary: [UInt8])
    func closed(code: UInt16?, reason: String)
}

extension WebSocketMessageHandler {
    /// Hands the message on as a `String`, for handlers that read no bytes.
    public func received(utf8Text: UnsafeBufferPointer<UInt8>) {
        self.received(text: String(decoding: utf8Text, as: UTF8.self))
    }
}
