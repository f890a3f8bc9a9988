import Glibc
import HearthSystem

/// The knobs of one `HTTPServer`: where it listens and the limits that keep a hostile or slow client from
/// exhausting the node.
public struct HTTPServerConfiguration: Sendable {
    public var host: String = "127.0.0.1"
    /// The TCP port; 0 picks a free one (see `HTTPServer.bind()`).
    public var port: Int = 9000
    /// The largest request line plus headers accepted; larger heads are answered with 431.
    public var maximumHeaderBytes: Int = 32 * 1024
    /// Slowloris guard: a full head must arrive within this many seconds, or the client gets 408.
    public var headerTimeoutSeconds: Double = 10
    /// A keep-alive connection with no request in progress is closed after this many seconds.
    public var idleTimeoutSeconds: Double = 120
    /// A request body, or a WebSocket message once it has begun, must arrive at least this fast (averaged since
    /// it began, after the grace period); a slower body is answered 408, a slower WebSocket message closes the
    /// socket with 1008. A rate of 0 bytes a second turns the check off.
    public var minimumDataRate = MinimumDataRate.standard
    /// The longest a whole request body may take to arrive, however fast (408 beyond it); `nil` for no bound.
    public var bodyDeadlineSeconds: Double?
    /// The most bytes queued for one connection before it is closed as a consumer that cannot keep up.
    public var outboundBufferLimit: Int = 64 * 1024 * 1024
    /// A connection may hold more than this many queued bytes only for `outputSoftLimitSeconds`; then it is evicted
    /// with its protocol's goodbye (anchor: Redis's pub/sub soft limit, 8 MB for 60 s).
    public var outputSoftLimitBytes: Int = 8 * 1024 * 1024
    public var outputSoftLimitSeconds: Double = 60
    /// The node-wide budget for bytes held on clients' behalf (queued answers, request bodies and WebSocket messages
    /// being received); past it the connections holding the most are evicted first. `nil`: no budget. The default
    /// is an eighth of the machine's memory, at least 64 MiB.
    public var maximumClientMemory: Int? = Self.defaultMaximumClientMemory
    /// Hears every eviction, on the reactor thread (quick, never blocking): the client's address, why, and the bytes
    /// it held.
    public var onEviction: @Sendable (String, ConnectionEviction, Int) -> Void = { _, _, _ in }
    /// The most client connections held at once. Beyond it the longest-idle keep-alive connection is closed to
    /// make room, or else the new client is answered 503 with `Retry-After` and closed. The default is what the
    /// process's descriptor limit allows (`DescriptorLimit.connections`, read when the configuration is made).
    public var maximumConnections: Int = DescriptorLimit.current().connections
    /// Threads besides the reactor's that send when one batch of events goes to many connections at once (one write
    /// to thousands of listeners), so its `send`s use more than one core. The default is one fewer than the
    /// machine's online cores, at most 3; 0 sends everything from the reactor thread.
    public var sendHelpers: Int = Self.defaultSendHelpers
    /// The graceful-shutdown bound: how long `run()` waits for queued responses to flush after the in-flight
    /// handlers have finished.
    public var shutdownFlushSeconds: Double = 5

    public init() {}

    /// One fewer than the machine's online cores, at most 3.
    public static var defaultSendHelpers: Int {
        let cores = sysconf(Int32(_SC_NPROCESSORS_ONLN))
        return max(0, min(3, cores - 1))
    }

    /// An eighth of the machine's physical memory, at least 64 MiB.
    public static var defaultMaximumClientMemory: Int {
        let pages = sysconf(Int32(_SC_PHYS_PAGES))
        let pageSize = sysconf(Int32(_SC_PAGESIZE))
        let minimum = 64 * 1024 * 1024
        guard pages > 0, pageSize > 0 else { return minimum }
        return max(minimum, pages.multipliedReportingOverflow(by: pageSize).partialValue / 8)
    }
}
