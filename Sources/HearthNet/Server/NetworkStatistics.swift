/// Counters an `HTTPServer` (or any `EventLoop`) exposes for `/.metrics` and tests; a snapshot, read without
/// stopping the reactor. `openConnections` counts dialed connections too, from the moment their dial starts.
public struct NetworkStatistics: Sendable, Hashable {
    public var acceptedConnections: UInt64
    public var openConnections: Int
    public var bytesRead: UInt64
    public var bytesWritten: UInt64
    /// How many times `accept` failed and left the connection queued: out of descriptors or memory (`EMFILE`,
    /// `ENFILE`, `ENOBUFS`, `ENOMEM`) or an unexpected errno. Each failure pauses accepting for up to 100 ms; a
    /// rising count means the descriptor limit (`ulimit -n`) is too low for the load.
    public var acceptFailures: UInt64

    public init(
        acceptedConnections: UInt64 = 0,
        openConnections: Int = 0,
        bytesRead: UInt64 = 0,
        bytesWritten: UInt64 = 0,
        acceptFailures: UInt64 = 0
    ) {
        self.acceptedConnections = acceptedConnections
        self.openConnections = openConnections
        self.bytesRead = bytesRead
        self.bytesWritten = bytesWritten
        self.acceptFailures = acceptFailures
    }
}
