/// What `hearth bench stars` runs: where, how hard, for how long, and what it writes down.
public struct StarsOptions: Sendable, Equatable {
    /// How each operation stars or un-stars a post.
    public enum Mode: String, Sendable, CaseIterable {
        /// The docs' fan-out: one multi-path update sets `stars/$uid` and bumps `starCount` with
        /// `ServerValue.increment` in `posts/$p` and in its copy under `user-posts/$author/$p`.
        case increment
        /// The docs' `toggleStar` as an optimistic transaction on `posts/$p`, as the SDKs run one: listen to the
        /// post, put the toggled value with the hash of the one it started from, and on `datastale` try again on the
        /// value the server pushed.
        case transaction
        /// The same toggle through REST: read with `X-Firebase-ETag`, put with `if-match`, and on `412` try again
        /// with the value and ETag it carried.
        case rest
        /// A mix: of every four clients two run `increment`, one `transaction` and one `rest`; and readers
        /// listen to the top posts.
        case mixed
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
    /// The run's id, which every name the run writes carries (`--run`); nil draws a random one. Two runs with the
    /// same id write the same paths, so their posts fall on the same shards: an A/B comparison of two builds
    /// then differs only in the builds (set-up overwrites each post whole, so an id may be used again).
    public var run: String?
    /// Connections listening to the top posts (`orderByChild("starCount").limitToLast(10)`) while the run goes;
    /// nil: 4 in the `mixed` mode, none otherwise.
    public var readers: Int?
    /// Kill the leader of the hottest shard halfway through (`--chaos kill-leader`), through `clusterScript`.
    public var killsLeader = false
    /// `scripts/cluster`, which started the nodes and kills and restarts them.
    public var clusterScript = "scripts/cluster"
    /// The file holding an administrator's database secret, with which `--chaos` asks `/.cluster` for the shards'
    /// leaders (`--credential-file`; else the file `$HEARTH_CREDENTIAL_FILE` names).
    public var credentialFile: String?
    /// Remove what the run wrote once its checks are done (`--cleanup`); otherwise the report ends with what was
    /// left and the command that removes it.
    public var cleansUp = false
    /// List every operation slower than this at the end of the report (`--slow-log`); nil lists none.
    public var slowLog: Duration?
    /// Where to write the final report as JSON.
    public var jsonFile: String?
    /// Where to write the final report as a self-contained HTML page with charts.
    public var htmlFile: String?

    public init() {}

    /// How many readers listen: `readers`, or the mode's default.
    public var readerCount: Int { self.readers ?? (self.mode == .mixed ? 4 : 0) }
}
