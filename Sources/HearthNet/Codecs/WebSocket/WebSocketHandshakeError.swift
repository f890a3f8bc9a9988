/// An HTTP request that cannot become a WebSocket; carries the response that tells the client what to fix.
public struct WebSocketHandshakeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which upgrade requirement was missed.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        public var description: String { self.name }

        /// The method was not GET.
        public static let invalidMethod = Code("invalidMethod")
        /// The request was not HTTP/1.1.
        public static let invalidVersion = Code("invalidVersion")
        /// `Upgrade: websocket` or `Connection: Upgrade` was missing.
        public static let missingUpgrade = Code("missingUpgrade")
        /// `Sec-WebSocket-Version` was missing or repeated.
        public static let missingVersion = Code("missingVersion")
        /// `Sec-WebSocket-Version` named a version other than 13 (answered with 426).
        public static let unsupportedVersion = Code("unsupportedVersion")
        /// `Sec-WebSocket-Key` was missing, repeated, or not base64 for 16 bytes.
        public static let invalidKey = Code("invalidKey")
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { self.message }

    /// The HTTP status to answer with: 426 Upgrade Required for a wrong version, else 400.
    public var status: Int {
        self.code == .unsupportedVersion ? 426 : 400
    }

    /// The response to send: a JSON `{"error": message}` body, plus `Sec-WebSocket-Version: 13` on a 426 so the
    /// client can retry with the version we speak (RFC 6455 §4.4).
    public var response: HTTPResponse {
        var response = HTTPResponse.jsonError(status: self.status, message: self.message)
        if self.code == .unsupportedVersion {
            response.headers.add("Sec-WebSocket-Version", WebSocketHandshake.version)
        }
        return response
    }
}
