/// One WebSocket to one node, as the connection sees it: open it, send text frames, close it, and hear what
/// happened. The seam between `PersistentConnection` and the socket code, so the connection runs the same over our
/// own WebSocket client (`WebSocketTransport`, plain `ws`) and Foundation's (`URLSessionTransport`, `wss`), and tests
/// drive it with a fake.
///
/// Rules for implementers: `start` is called once; events come in order on any thread, `opened` at most once and
/// before any `text`, and `closed` exactly once, last (also when the transport never opened, or after `close()`).
/// `send` before `opened` or after a close is ignored.
package protocol RealtimeTransport: AnyObject, Sendable {
    /// Starts connecting; `events` hears what happens, in order.
    func start(events: @escaping @Sendable (RealtimeTransportEvent) -> Void)
    /// Sends one text frame.
    func send(text: String)
    /// Closes the WebSocket (a close frame, then the socket); `closed` follows.
    func close()
}

/// What a `RealtimeTransport` reports.
package enum RealtimeTransportEvent: Sendable, Equatable {
    /// The WebSocket handshake succeeded: frames may be sent.
    case opened
    /// One text frame arrived.
    case text(String)
    /// The transport is gone, with the reason when it failed (`nil` after an orderly close).
    case closed(RealtimeConnectionError?)
}

/// Makes the transport for one attempt to reach `endpoint`, asking for `target` (see `RealtimeEndpoint.target`).
package typealias RealtimeTransportFactory =
    @Sendable (_ endpoint: RealtimeEndpoint, _ target: String) -> any RealtimeTransport
