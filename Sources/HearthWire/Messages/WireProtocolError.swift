/// A wire-protocol failure a client can act on: a bad frame sequence, a bad message, or a request the server
/// refuses.
///
/// The code's name is the status string the client receives (`{"s": "<code>", "d": "<message>"}`) when the failure
/// belongs to one request; frame-level failures close the socket with the message as the close reason.
public struct WireProtocolError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why the request or frame was refused; its `description` is the wire status string.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        public var description: String { self.name }

        /// The code a response's status names, including ones this server never sends (`write_too_big`…), so a
        /// client can decode every refusal.
        public init(status: String) { self.name = status }

        /// A frame sequence that breaks the count-frame rules, or a frame that is not a JSON message.
        public static let malformedFrame = Code("malformed_frame")
        /// A message larger than the node's inbound limit.
        public static let messageTooBig = Code("message_too_big")
        /// A request with an unknown action or a missing or mistyped field.
        public static let invalidRequest = Code("invalid_request")
        /// A write whose path, keys or value break Firebase's rules.
        public static let invalidData = Code("invalid_data")
        /// The access policy refused the read or write.
        public static let permissionDenied = Code("permission_denied")
        /// An `auth` credential that is not a token the server can verify; the client drops it and reconnects.
        public static let invalidToken = Code("invalid_token")
        /// An `auth` token past its expiry; the client refreshes it and reconnects.
        public static let expiredToken = Code("expired_token")
        /// A compare-and-set put whose hash no longer matches the stored value.
        public static let dataStale = Code("datastale")
        /// Data to send is larger than the protocol can carry in one message.
        public static let tooBig = Code("too_big")
        /// A listen past the most one connection may hold (`--max-listens-per-session`); removing others makes room.
        public static let tooManyListens = Code("too_many_listens")
        /// An onDisconnect operation past the count or bytes one connection may register
        /// (`--max-ondisconnects-per-session`, `--max-ondisconnect-bytes`); cancelling others makes room.
        public static let tooManyOnDisconnects = Code("too_many_ondisconnects")
        /// The database could not complete the request (storage failure); retrying later may work.
        public static let unavailable = Code("unavailable")
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(self.code): \(self.message)" }

    /// Whether sending the same request again later may succeed.
    public var isRetryable: Bool { self.code == .dataStale || self.code == .unavailable }

    /// The refusal the access policy's "no" becomes, worded as Firebase words it.
    public static let permissionDeniedError = WireProtocolError(.permissionDenied, "Permission denied")
}
