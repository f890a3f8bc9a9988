/// The handshake's data (reference §1.4): the server's clock, the protocol version, the host the client should use
/// and the session id it will send back as `ls` when it reconnects.
public struct WireHandshake: Sendable, Hashable {
    /// The only protocol version there is.
    public static let protocolVersion = "5"

    /// The server's clock in milliseconds since the Unix epoch (clients derive `.info/serverTimeOffset`).
    public var timestamp: Int64
    public var version: String
    public var host: String
    public var sessionID: String

    public init(timestamp: Int64, version: String = Self.protocolVersion, host: String, sessionID: String) {
        self.timestamp = timestamp
        self.version = version
        self.host = host
        self.sessionID = sessionID
    }
}
