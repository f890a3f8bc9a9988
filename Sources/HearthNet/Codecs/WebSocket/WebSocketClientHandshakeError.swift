/// The server's answer to a client's WebSocket upgrade failed a check RFC 6455 §4.1 requires, so no frame may be
/// sent; the message says which and what it suggests.
package struct WebSocketClientHandshakeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which check failed.
    package struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        package var description: String { self.name }

        /// The answer is not an HTTP/1.1 response head.
        package static let malformedResponse = Code("malformedResponse")
        /// The status was not 101, or `Upgrade` / `Connection` were missing.
        package static let upgradeRefused = Code("upgradeRefused")
        /// `Sec-WebSocket-Accept` was missing or did not match the key sent.
        package static let invalidAccept = Code("invalidAccept")
        /// The server chose an extension or subprotocol the client did not offer.
        package static let unexpectedNegotiation = Code("unexpectedNegotiation")
    }

    package let code: Code
    package let message: String

    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    package var description: String { self.message }
}
