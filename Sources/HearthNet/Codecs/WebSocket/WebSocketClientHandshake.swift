import HearthCore

/// The client's half of the RFC 6455 opening handshake (§4.1): the upgrade request, and the checks on the server's
/// answer that a client must make before it sends a frame.
///
/// The server's half is `WebSocketHandshake`. No extensions and no subprotocols are asked for, so an answer that
/// names one is refused, as is any answer whose `Sec-WebSocket-Accept` does not prove the server read our key.
package enum WebSocketClientHandshake {
    /// The most bytes a response head may take before the answer is refused.
    package static let maximumHeadBytes = 16 * 1024

    /// A fresh `Sec-WebSocket-Key`: 16 random bytes in base64.
    package static func makeKey(using random: inout some RandomNumberGenerator) -> String {
        Base64.encode((0..<16).map { _ in UInt8.random(in: 0...255, using: &random) })
    }

    /// The upgrade request for `target` (e.g. `/.ws?v=5&ns=demo`) on `host` (the `Host` header, `host:port`),
    /// plus any `extraHeaders` (a `User-Agent`, say).
    package static func request(
        target: String,
        host: String,
        key: String,
        extraHeaders: HTTPHeaders = HTTPHeaders()
    ) -> [UInt8] {
        var text = "GET \(target) HTTP/1.1\r\nHost: \(host)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        text += "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: \(WebSocketHandshake.version)\r\n"
        for (name, value) in extraHeaders { text += "\(name): \(value)\r\n" }
        text += "\r\n"
        return Array(text.utf8)
    }

    /// The length of the response head in `bytes`, up to and including the blank line that ends it; `nil` while
    /// it is incomplete. Bytes after it are already WebSocket frames.
    package static func headLength(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index + 4
        }
        return nil
    }

    /// Checks the server's answer to a request sent with `key`: `101`, `Upgrade: websocket`,
    /// `Connection: Upgrade`, the matching `Sec-WebSocket-Accept`, and no extension or subprotocol.
    ///
    /// - Parameter head: the response head, as `headLength(in:)` delimits it.
    /// - Throws: `WebSocketClientHandshakeError` naming the first check that failed.
    package static func check(head: [UInt8], key: String) throws(WebSocketClientHandshakeError) {
        let parsed: HTTPResponse?
        do {
            parsed = try HTTPResponseReader.read(head, atEnd: true, method: "HEAD")
        } catch {
            throw Self.malformed(error.message)
        }
        guard let response = parsed else { throw Self.malformed("The response head is incomplete.") }
        guard response.status == 101 else {
            throw WebSocketClientHandshakeError(
                .upgradeRefused,
                "The server answered the WebSocket upgrade with HTTP \(response.status) instead of 101 Switching "
                    + "Protocols; check the URL and that it leads to a Hearth or Firebase realtime endpoint."
            )
        }
        guard response.headers.containsToken("websocket", in: "Upgrade"),
            response.headers.containsToken("upgrade", in: "Connection")
        else {
            throw WebSocketClientHandshakeError(
                .upgradeRefused,
                "The server's 101 answer lacks \"Upgrade: websocket\" and \"Connection: Upgrade\"."
            )
        }
        let expected = WebSocketHandshake.acceptValue(forKey: key)
        let accept = response.headers["Sec-WebSocket-Accept"]
        guard accept == expected else {
            throw WebSocketClientHandshakeError(
                .invalidAccept,
                "The server's Sec-WebSocket-Accept is \(accept.map { "\"\($0)\"" } ?? "missing"), not \"\(expected)\" "
                    + "as our key requires; something other than the database (a proxy?) answered the upgrade."
            )
        }
        for name in ["Sec-WebSocket-Extensions", "Sec-WebSocket-Protocol"] where response.headers.contains(name) {
            throw WebSocketClientHandshakeError(
                .unexpectedNegotiation,
                "The server chose \(name) \"\(response.headers[name] ?? "")\", which the client never asked for."
            )
        }
    }

    private static func malformed(_ reason: String) -> WebSocketClientHandshakeError {
        WebSocketClientHandshakeError(
            .malformedResponse, "The server's answer to the WebSocket upgrade is not HTTP: \(reason)")
    }
}
