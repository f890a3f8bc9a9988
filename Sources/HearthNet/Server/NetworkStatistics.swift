/// Counters an `HTTPServer` exposes for `/.metrics` and tests; a snapshot, read without stopping the reactor.
public struct NetworkStatistics: Sendable, Hashable {
    public var acceptedConnections: UInt64
    public var openConnections: Int
    public var bytesRead: UInt64
    public var bytesWritten: UInt64

    public init(
        acceptedConnections: UInt64 = 0,
        openConnections: Int = 0,
        bytesRead: UInt64 = 0,
        bytesWritten: UInt64 = 0
    ) {
        self.acceptedConnections = acceptedConnections
        self.openConnections = openConnections
        self.bytesRead = bytesRead
        self.bytesWritten = bytesWritten
    }
}
