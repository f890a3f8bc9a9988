/// What `hearth bench stars` runs: where, how hard, for how long, and what it writes down.
public struct StarsOptions: Sendable, Equatable {
    /// How each operation stars or un-stars a post.
    public enum Mode: String, Sendable, CaseIterable {
        /// The docs' fan-out: one multi-path update sets `stars/$uid` and bumps `starCount` with
        /// `ServerValue.increment` in `posts/$p` and in its copy under `user-posts/$author/$p`.
        case increment
        /// The docs' `toggleStar` as an optimistic transaction on `posts/$p`: read, change, compare-and-set,
        /// again on stale data.
        case transaction
    }

    /// One node to connect to, as `host:port` names its HTTP port.
    public struct Node: Sendable, Equatable, CustomStringConvertible {
        public var host: String
        public var port: Int

        public init(host: String, port: Int) {
            self.host = host
            self.port = port
        }

        public var description: String { "\(self.host):\(self.port)" }
    }

    public var nodes = [Node(host: "127.0.0.1", port: 9000)]
    /// Realtime-protocol connections, each one app's, spread over the nodes in turn.
    public var clients = 64
    public var posts = 20
    /// The users who star; each belongs to one client, so no two clients toggle the same star.
    public var users = 1000
    public var duration: Duration = .seconds(30)
    public var mode = Mode.increment
    /// Every client stars the same post (the worst case).
    public var hot = false
    public var namespace = "default"
    /// Where to write the final report as JSON.
    public var jsonFile: String?

    public init() {}
}
