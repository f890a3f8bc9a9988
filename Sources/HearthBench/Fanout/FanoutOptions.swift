/// What `hearth bench fanout` runs: many listeners on one location of a server, and small writes under it whose
/// every event is timed from its write's send to its arrival at each listener.
public struct FanoutOptions: Sendable, Equatable {
    /// The server the listeners and the writer talk to.
    public enum Target: String, Sendable, CaseIterable {
        /// A Hearth node: realtime-protocol (WebSocket) listens on `/room`, puts of a short string to `/room/mI`.
        case hearth
        /// Redis: `SUBSCRIBE room` on every listener, one `PUBLISH room mI` per write (the peer figure).
        case redis
    }

    /// How the writer sends a Hearth node its writes.
    public enum Writer: String, Sendable, CaseIterable {
        /// Realtime-protocol puts on a WebSocket of its own, as a client SDK writes.
        case realtime
        /// `PUT` requests pipelined on one keep-alive HTTP/1.1 connection, as server-side writers (firebase-admin
        /// for Python, Java and Go) write.
        case rest
    }

    public var target = Target.hearth
    public var writer = Writer.realtime
    public var server = StarsOptions.Node(host: "127.0.0.1", port: 9000)
    public var listeners = 10_000
    public var writes = 20
    /// Time between two writes; zero sends them all at once.
    public var interval: Duration = .seconds(1)
    /// Threads reading the listeners' sockets, each an event loop over its share of them.
    public var threads = 2
    /// The server's process, whose CPU time (from `/proc`) is divided by the events delivered.
    public var serverPID: Int32?
    public var namespace = "bench"
    public var jsonFile: String?

    public init() {}

    /// The most writes one run can name: each event carries its write's number in this many digits.
    static let writeDigits = 6
}
