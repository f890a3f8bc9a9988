/// Counters an `HTTPServer` (or any `EventLoop`) exposes for `/.metrics` and tests; a snapshot, read without
/// stopping the reactor. `openConnections` counts dialed connections too, from the moment their dial starts.
public struct NetworkStatistics: Sendable, Hashable {
    public var acceptedConnections: UInt64
    public var openConnections: Int
    public var bytesRead: UInt64
    public var bytesWritten: UInt64
    /// How many times `accept` failed and left the connection queued: out of descriptors or memory (`EMFILE`,
    /// `ENFILE`, `ENOBUFS`, `ENOMEM`) or an unexpected errno. Out of descriptors, the reactor makes room (see
    /// `refusedConnections`); otherwise accepting pauses for up to 100 ms. A rising count means the descriptor
    /// limit (`ulimit -n`) is too low for the load.
    public var acceptFailures: UInt64
    /// Clients accepted only to be told there was no room (an HTTP 503 with `Retry-After`) and closed: the node
    /// held `maximumConnections`, or ran out of descriptors, with no idle connection to close instead.
    public var refusedConnections: UInt64
    /// Idle keep-alive connections closed to make room for a new client.
    public var idleClosedForRoom: UInt64
    /// Bytes held on clients' behalf (queued answers, buffered requests), as charged to the client memory budget;
    /// 0 without a budget.
    public var clientMemoryBytes: Int
    /// Connections closed because clients together held more than the budget and they held the most.
    public var evictedForMemoryBudget: UInt64
    /// Connections closed because answers waited for them above the soft limit for longer than its grace period.
    public var evictedForSoftLimit: UInt64
    /// Batches of flushes so large (one event to many listeners) that the reactor and its send helpers sent them
    /// together.
    public var parallelFlushes: UInt64

    public init(
        acceptedConnections: UInt64 = 0,
        openConnections: Int = 0,
        bytesRead: UInt64 = 0,
        bytesWritten: UInt64 = 0,
        acceptFailures: UInt64 = 0,
        refusedConnections: UInt64 = 0,
        idleClosedForRoom: UInt64 = 0,
        clientMemoryBytes: Int = 0,
        evictedForMemoryBudget: UInt64 = 0,
        evictedForSoftLimit: UInt64 = 0,
        parallelFlushes: UInt64 = 0
    ) {
        self.acceptedConnections = acceptedConnections
        self.openConnections = openConnections
        self.bytesRead = bytesRead
        self.bytesWritten = bytesWritten
        self.acceptFailures = acceptFailures
        self.refusedConnections = refusedConnections
        self.idleClosedForRoom = idleClosedForRoom
        self.clientMemoryBytes = clientMemoryBytes
        self.evictedForMemoryBudget = evictedForMemoryBudget
        self.evictedForSoftLimit = evictedForSoftLimit
        self.parallelFlushes = parallelFlushes
    }
}
