import HearthCore

/// Checks an HTTP upgrade request against RFC 6455 §4.2.1 and builds the `101 Switching Protocols` answer.
///
/// No extensions and no subprotocols are negotiated (Firebase clients ask for neither), so frames must keep their
/// RSV bits clear. A request that fails a check gets an error whose `response` is ready to send: 400 with a
/// `{"error": "…"}` body, or 426 with `Sec-WebSocket-Version: 13` when the client speaks another protocol version.
public enum WebSocketHandshake {
    /// The GUID RFC 6455 appends to the client's key before hashing.
    public static let acceptGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
    /// The only protocol version there is.
    public static let version = "13"

    /// `Sec-WebSocket-Accept` for a client key: base64(SHA-1(key + GUID)).
    public static func acceptValue(forKey key: String) -> String {
        Base64.encode(SHA1.hash(Array((key + Self.acceptGUID).utf8)))
    }

    /// The 101 response for a valid upgrade request.
    ///
    /// Checks, in order: method `GET`, version `HTTP/1.1`, `Upgrade` listing `websocket`, `Connection` listing
    /// `upgrade` (both case-insensitive), `Sec-WebSocket-Version: 13`, and a single `Sec-WebSocket-Key` that is
    /// base64 for 16 bytes.
    /// - Throws: the first failed check, carrying the 400 or 426 response to send instead.
    public static func acceptResponse(for request: HTTPRequest) throws(WebSocketHandshakeError) -> HTTPResponse {
        let headers = request.headers
        guard request.method == "GET" else {
            throw WebSocketHandshakeError(
                .invalidMethod,
                "A WebSocket upgrade must be a GET request, not \(request.method)."
            )
        }
        guard request.version == "HTTP/1.1" else {
            throw WebSocketHandshakeError(.invalidVersion, "A WebSocket upgrade needs HTTP/1.1.")
        }
        guard headers.containsToken("websocket", in: "Upgrade") else {
            throw WebSocketHandshakeError(
                .missingUpgrade,
                "This endpoint only serves WebSockets; send \"Upgrade: websocket\"."
            )
        }
        guard headers.containsToken("upgrade", in: "Connection") else {
            throw WebSocketHandshakeError(
                .missingUpgrade,
                "A WebSocket upgrade needs \"Connection: Upgrade\"."
            )
        }
        let versions = headers.values("Sec-WebSocket-Version")
        guard let version = versions.first, versions.count == 1 else {
            throw WebSocketHandshakeError(
                .missingVersion,
                "A WebSocket upgrade needs one \"Sec-WebSocket-Version: 13\" header."
            )
        }
        guard Self.trimmed(version) == Self.version else {
            throw WebSocketHandshakeError(
                .unsupportedVersion,
                "WebSocket version \(Self.trimmed(version)) is not supported; use version 13."
            )
        }
        let keys = headers.values("Sec-WebSocket-Key")
        guard let key = keys.first.map(Self.trimmed), keys.count == 1, Base64.decode(key)?.count == 16 else {
            throw WebSocketHandshakeError(
                .invalidKey,
                "A WebSocket upgrade needs one \"Sec-WebSocket-Key\" header holding 16 base64-encoded bytes."
            )
        }
        var responseHeaders = HTTPHeaders()
        responseHeaders.add("Upgrade", "websocket")
        responseHeaders.add("Connection", "Upgrade")
        responseHeaders.add("Sec-WebSocket-Accept", Self.acceptValue(forKey: key))
        return HTTPResponse(status: 101, headers: responseHeaders)
    }

    /// `text` without leading or trailing spaces and tabs.
    private static func trimmed(_ text: String) -> String {
        var result = Substring(text)
        while let first = result.first, first == " " || first == "\t" { result = result.dropFirst() }
        while let last = result.last, last == " " || last == "\t" { result = result.dropLast() }
        return String(result)
    }
}
