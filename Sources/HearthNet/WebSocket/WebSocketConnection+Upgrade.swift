extension WebSocketConnection {
    /// The server's answer to a request on a WebSocket endpoint: `.upgrade` with the 101 response and a fresh
    /// connection feeding `handler`, or `.response` with the 400/426 error when the request is not a valid
    /// RFC 6455 upgrade (see `WebSocketHandshake.acceptResponse(for:)`). `closeTimeout` bounds how long a
    /// server-initiated close waits for the peer's close frame.
    public static func upgradeReply(
        for request: HTTPRequest,
        handler: any WebSocketMessageHandler,
        maximumMessageBytes: Int = WebSocketFrameParser.defaultMaximumMessageBytes,
        closeTimeout: Duration = WebSocketConnection.defaultCloseTimeout
    ) -> HTTPReply {
        do {
            let response = try WebSocketHandshake.acceptResponse(for: request)
            let connection = WebSocketConnection(
                handler: handler,
                maximumMessageBytes: maximumMessageBytes,
                closeTimeout: closeTimeout
            )
            return .upgrade(response, connection)
        } catch {
            return .response(error.response)
        }
    }
}
