/// Decides who sends which close frame, when the socket goes, and what the application is told (RFC 6455 §7).
///
/// A pure value: each `on…` handler takes one event and returns the actions for the shell to perform, in order.
/// The rules it keeps:
/// - A server-initiated close sends a close frame, then waits (bounded by a timer the shell runs) for the peer's
///   close before dropping the socket; if the timer fires first the socket is dropped anyway.
/// - A peer's close is echoed with the same code (an empty body when the peer sent none), then the socket closes.
/// - A peer close carrying a code that may not travel (999, 1004, 1005, 5000…) is answered with 1002.
/// - After a close frame is sent nothing else is: `canSendData` turns false and no second close is produced.
/// - 1005, 1006 and 1015 are never sent; they only appear in `notifyClosed`.
/// - The application hears `notifyClosed` exactly once, as the last action for the connection.
public struct WebSocketCloseStateMachine: Sendable {
    /// How far the close handshake has got.
    public enum State: Sendable, Hashable {
        /// Data flows both ways.
        case open
        /// We sent a close frame and wait for the peer's; nothing more is sent.
        case closeSent
        /// The handshake is over (or was abandoned) and the application has been told.
        case closed
    }

    /// What the shell must do, in the order returned.
    public enum Action: Sendable, Hashable {
        /// Send a close frame with this body (`nil`: empty body).
        case sendClose(code: UInt16?, reason: String)
        /// Start the bounded wait for the peer's close; when it expires call `onCloseTimeout()`.
        case startCloseTimer
        /// Flush what is queued and close the TCP connection.
        case closeConnection
        /// Tell the application the WebSocket is closed, with the peer's code (`nil` when its close frame had no
        /// body, RFC 6455's 1005), our error code, or 1006 when the connection dropped without a completed handshake.
        case notifyClosed(code: UInt16?, reason: String)
    }

    public private(set) var state: State = .open

    public init() {}

    /// Whether messages, pings and pongs may still be sent.
    public var canSendData: Bool { self.state == .open }

    /// The application (or the server shutting down) wants to close with `code`.
    ///
    /// A code that may not travel (such as 1005, 1006 or 1015) becomes a close frame with an empty body.
    public mutating func onCloseRequested(code: UInt16, reason: String) -> [Action] {
        guard self.state == .open else { return [] }
        self.state = .closeSent
        guard WebSocketCloseCode.isValidOnWire(code) else {
            return [.sendClose(code: nil, reason: ""), .startCloseTimer]
        }
        return [.sendClose(code: code, reason: reason), .startCloseTimer]
    }

    /// The peer sent a close frame (`code` is `nil` when its body was empty).
    public mutating func onPeerClose(code: UInt16?, reason: String) -> [Action] {
        if let code, !WebSocketCloseCode.isValidOnWire(code) {
            return self.onProtocolError(
                closeCode: WebSocketCloseCode.protocolError,
                reason: "Close code \(code) may not be sent."
            )
        }
        switch self.state {
        case .open:
            self.state = .closed
            return [.sendClose(code: code, reason: ""), .closeConnection, .notifyClosed(code: code, reason: reason)]
        case .closeSent:
            self.state = .closed
            return [.closeConnection, .notifyClosed(code: code, reason: reason)]
        case .closed:
            return []
        }
    }

    /// The parser found a protocol violation: fail the connection with the error's close code.
    public mutating func onProtocolError(_ error: WebSocketProtocolError) -> [Action] {
        self.onProtocolError(closeCode: error.closeCode, reason: error.message)
    }

    /// The bounded wait after our close frame ran out: drop the socket. The application is told (1006) once the
    /// connection is gone, through `onConnectionClosed()`.
    public mutating func onCloseTimeout() -> [Action] {
        guard self.state == .closeSent else { return [] }
        return [.closeConnection]
    }

    /// The TCP connection is gone (peer reset, shutdown, overflow, or our own close completing).
    public mutating func onConnectionClosed() -> [Action] {
        guard self.state != .closed else { return [] }
        self.state = .closed
        return [.notifyClosed(code: WebSocketCloseCode.abnormalClosure, reason: "")]
    }

    private mutating func onProtocolError(closeCode: UInt16, reason: String) -> [Action] {
        switch self.state {
        case .open:
            self.state = .closed
            return [
                .sendClose(code: closeCode, reason: reason),
                .closeConnection,
                .notifyClosed(code: closeCode, reason: reason),
            ]
        case .closeSent:
            self.state = .closed
            return [.closeConnection, .notifyClosed(code: closeCode, reason: reason)]
        case .closed:
            return []
        }
    }
}
