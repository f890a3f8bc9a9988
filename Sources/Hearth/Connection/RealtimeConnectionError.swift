/// Why the client's connection to a node could not be set up or was lost, worded so a developer can act on it.
package struct RealtimeConnectionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure happened.
    package struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        package var description: String { self.name }

        /// A node URL that is not `ws://`, `wss://`, `http://` or `https://` with a host.
        package static let invalidURL = Code("invalidURL")
        /// The host name could not be resolved to an address.
        package static let unresolvedHost = Code("unresolvedHost")
        /// The TCP connection could not be made or was lost.
        package static let connectionFailed = Code("connectionFailed")
        /// The server did not accept the WebSocket upgrade, or broke the WebSocket protocol.
        package static let webSocketFailed = Code("webSocketFailed")
        /// The transport cannot be used on this platform (for example `wss` without a TLS-capable Foundation).
        package static let unsupported = Code("unsupported")
    }

    package let code: Code
    package let message: String

    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    package var description: String { self.message }
}
