/// A request the HTTP/1.1 parser refuses; it carries the status to answer with and a message the client can act on.
///
/// The connection is always closed after answering, because the parser cannot know where the next request starts.
public struct HTTPParserError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of rule the request broke.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        public var description: String { self.name }

        /// The request line, a header field or the body framing is not valid HTTP/1.1.
        public static let malformedRequest = Code("malformedRequest")
        /// The request line and headers together exceed the configured maximum.
        public static let headTooLarge = Code("headTooLarge")
        /// The body exceeds what the application accepts for this request.
        public static let bodyTooLarge = Code("bodyTooLarge")
        /// The request names an HTTP version other than 1.0 or 1.1.
        public static let unsupportedVersion = Code("unsupportedVersion")
        /// The head did not arrive within the header timeout.
        public static let headTimeout = Code("headTimeout")
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The HTTP status that answers this error.
    public var status: Int {
        switch self.code {
        case .headTooLarge: return 431
        case .unsupportedVersion: return 505
        case .headTimeout: return 408
        default: return 400
        }
    }

    public var description: String { "\(self.code) (\(self.status)): \(self.message)" }

    static func malformed(_ message: String) -> HTTPParserError {
        HTTPParserError(.malformedRequest, message)
    }

    /// The exact text Firebase answers when a write is too large.
    static let bodyTooLargeMessage =
        "Data to write exceeds the maximum size that can be modified with a single request."
}
