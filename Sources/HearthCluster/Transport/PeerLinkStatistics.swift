public import HearthSystem

/// What one peer link has done since the transport started: the figures the node exports to `/.metrics` and shows
/// in `/.cluster`.
public struct PeerLinkStatistics: Sendable, Hashable {
    /// Frames handed to the peer's connection, and their bytes (headers included).
    public var framesSent: UInt64 = 0
    public var bytesSent: UInt64 = 0
    /// Frames received from the peer after its hello, and their bytes (headers included).
    public var framesReceived: UInt64 = 0
    public var bytesReceived: UInt64 = 0
    /// Frames refused because the peer's outbound queue was full.
    public var framesDropped: UInt64 = 0
    /// Connections that completed the handshake; every one after the first is a reconnect.
    public var connectionsEstablished: UInt64 = 0
    /// Connections closed because the handshake failed (another cluster or version, a stranger, a timeout).
    public var handshakeFailures: UInt64 = 0
    /// Bytes waiting in the peer's outbound queue right now.
    public var queuedBytes: Int = 0
    /// Whether a connection to the peer is up and past its handshake.
    public var isConnected = false
    /// The release the peer runs, as its latest verified hello said (0.1.0 for a hello without a release tag); `nil`
    /// until a connection to it has passed its handshake. Kept after the connection closes: the release it last ran.
    public var release: HearthRelease?

    public init() {}

    /// Connections after the first.
    public var reconnects: UInt64 { self.connectionsEstablished > 0 ? self.connectionsEstablished - 1 : 0 }
}
