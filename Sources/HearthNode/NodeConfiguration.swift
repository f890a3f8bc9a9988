public import HearthCluster
package import HearthNet
public import HearthRules
public import HearthStorage
public import HearthSystem

/// Everything a node needs to start, with the embedded defaults that make `hearth serve` work with no config file.
public struct NodeConfiguration: Sendable {
    /// Address the HTTP/WebSocket port binds to.
    public var host = "127.0.0.1"
    /// Port for REST, SSE and WebSocket (Firebase's emulator default); 0 picks a free port.
    public var port = 9000
    /// Where the write-ahead log and snapshots live.
    public var dataDirectory = "./hearth-data"
    /// When the log calls fsync: before every acknowledgement (`always`, `batch`) or never (`off`).
    public var fsync: FsyncMode = .batch
    /// Namespace used when a request names none (no `ns=` and an IP or `localhost` host).
    public var defaultNamespace = "default"
    /// Largest request body for an ordinary write (Firebase's REST limit for SDK-sized writes).
    public var maximumWriteBytes = 16 * 1024 * 1024
    /// Largest body when the client asks for `writeSizeLimit=unlimited` (imports).
    public var maximumImportBytes = 2 * 1024 * 1024 * 1024
    /// Virtual shards per namespace and the depth of the path prefix that picks one.
    public var shardCount = 16
    public var shardDepth = 2
    /// Snapshot after this many log records…
    public var snapshotEveryRecords = 100_000
    /// …or after this many seconds if anything was written since the last snapshot.
    public var snapshotIntervalSeconds = 300.0
    /// Size at which the write-ahead log starts a new segment file (tests shrink it to see old segments removed).
    package var walSegmentBytes = WALConfiguration().segmentBytes
    /// Slow-client guards for the HTTP front end.
    public var headerTimeoutSeconds = 10.0
    public var outboundBufferLimit = 64 * 1024 * 1024
    /// A client may hold more queued answers than this only for `outputSoftLimitSeconds` (then it is evicted).
    public var outputSoftLimitBytes = 8 * 1024 * 1024
    public var outputSoftLimitSeconds = 60.0
    /// The node-wide budget for bytes held on clients' behalf; past it the biggest holders are evicted. `nil`: see
    /// `effectiveMaximumClientMemory`.
    public var maximumClientMemory: Int?
    /// The slowest a request body or WebSocket message may arrive (408, or close 1008, below it); 0 turns it off.
    public var minimumBodyBytesPerSecond = MinimumDataRate.standard.bytesPerSecond
    /// The longest a whole request body may take, however fast; `nil` for no bound.
    public var bodyDeadlineSeconds: Double?
    /// The most client connections held at once; `nil` for what the descriptor limit allows
    /// (`DescriptorLimit.connections`).
    public var maximumConnections: Int?
    /// Threads beside the reactor's that send a batch of events to many connections at once; `nil` for
    /// `HTTPServerConfiguration.defaultSendHelpers`.
    public var sendHelpers: Int?
    /// Largest inbound realtime-protocol message (all frames of one message), in UTF-8 bytes.
    public var maximumWireMessageBytes = 16 * 1024 * 1024
    /// Received but not yet processed realtime-protocol bytes one session may have queued; a client that sends
    /// faster than its requests can be handled is disconnected past this, never growing the node's memory.
    public var maximumWireQueuedBytes = 64 * 1024 * 1024
    /// The most listens one realtime session may hold; past it a listen is refused with `too_many_listens`.
    public var maximumListensPerSession = 10_000
    /// The most onDisconnect operations one realtime session may have registered at once.
    public var maximumOnDisconnectsPerSession = 1_000
    /// The most bytes of data one realtime session's registered onDisconnect operations may hold together.
    public var maximumOnDisconnectBytesPerSession = 16 * 1024 * 1024
    /// Interval between WebSocket pings to realtime-protocol clients.
    public var wirePingSeconds = 30.0
    /// Interval between SSE keep-alive events.
    public var keepAliveSeconds = 30.0
    /// How long at most a cluster member that has just started holds its clients' requests until it has caught up
    /// with its shards' leaders (`--catch-up-hold-seconds`; 0 serves at once). A member down for seconds under load
    /// catches up in well under a second; one down for long may need snapshots, and serves once the hold runs out.
    public var catchUpHoldSeconds = 5
    /// Lowest log level written.
    public var logLevel: LogLevel = .info
    /// The cluster this node is a member of, and which member it is; nil runs a single node.
    public var cluster: ClusterConfiguration?
    public var node: NodeID?
    /// `hearth serve --join HOST:PORT`: the peer address of a member to join the cluster through, and this node's
    /// own peer port (`--peer-port`); nil otherwise.
    public var joinThrough: String?
    public var peerPort: Int?
    /// A node that joined earlier and restarts from its data directory (`JoinedMember`); `cluster` then holds the
    /// configuration the cluster was founded with.
    public var joined: JoinedMember?
    /// The secret this member proves to its peers in every handshake (`secretFile`, `--cluster-secret-file`); a
    /// cluster member does not start without one.
    package var clusterSecret: PeerClusterSecret?
    /// `--minimum-peer-release`: the oldest release this member accepts as a peer, raised above the rule's
    /// (`ReleaseRule.oldestPeer`) once every member runs the new release; nil for the rule's.
    public var minimumPeerRelease: HearthRelease?
    /// Where a node joining with `--join` was told its secrets are, kept in its data directory for its restarts.
    public var joinSecretFiles = JoinedMember.SecretFiles()
    /// Whether `POST /.cluster/partition` and `/.cluster/heal` may cut this node's links (tests and
    /// `scripts/cluster partition`); off unless asked for.
    public var allowsFaultInjection = false

    /// Security rules given at start (`--rules FILE`, or the cluster file's `rules`), installed for the default
    /// namespace when the node starts (replacing what was stored); `nil` keeps what is stored.
    public var rules: InstalledRules?
    /// Database secrets (`--database-secret-file`): each is an administrator's credential and an HS256 key.
    public var databaseSecrets: [String] = []
    /// Whether unsigned (`alg: none`) tokens, as the Auth emulator issues them, are believed
    /// (`--allow-unsigned-tokens`).
    public var allowsUnsignedTokens = false
    /// Whether the emulator's `owner` credential is an administrator (`--owner-credential`); `nil` for the default
    /// `acceptsOwner` decides: yes only on a single node on loopback without database secrets or ID-token keys.
    public var acceptsOwnerCredential: Bool?
    /// Checks Firebase Auth ID tokens (`--project-id` and `--auth-keys`); `nil` refuses them.
    public var idTokens: IDTokenVerifier?
    /// The file `idTokens`' keys came from (`--auth-keys`), read again every `authKeysRecheckSeconds`: a changed
    /// file replaces the keys (a bad one is logged and the keys in force stay).
    public var authKeysFile: String?
    public var authKeysRecheckSeconds: Double = 60

    public init() {}

    /// Whether this node starts from a cluster file or joins a cluster.
    package var isClusterMember: Bool { self.cluster != nil || self.joinThrough != nil || self.joined != nil }

    /// The rules of a namespace with no stored rules: the ones the node was started with (in force from its first
    /// request, before installing them is committed), else open on a single node (as the emulator starts, with a
    /// warning) and closed on a cluster member (nothing but administrators until rules are given).
    public var defaultRules: InstalledRules { self.rules ?? (self.isClusterMember ? .closed : .open) }

    /// Who credentials belong to on this node.
    public var authenticator: Authenticator {
        Authenticator(
            databaseSecrets: self.databaseSecrets,
            acceptsOwnerCredential: self.acceptsOwner,
            allowsUnsignedTokens: self.allowsUnsignedTokens, idTokens: self.idTokens)
    }

    /// The budget the node runs with: `maximumClientMemory`, or by default an eighth of the machine's memory
    /// (`HTTPServerConfiguration.defaultMaximumClientMemory`) but never less than the largest import plus 64 MiB,
    /// so that the budget never cuts off a write the node's own limits accept.
    public var effectiveMaximumClientMemory: Int {
        self.maximumClientMemory
            ?? max(HTTPServerConfiguration.defaultMaximumClientMemory, self.maximumImportBytes + 64 * 1024 * 1024)
    }
}

extension NodeConfiguration {
    /// What this member's hellos say of its release: this build's, accepting peers from `minimumPeerRelease` on
    /// (the rule's oldest when none is set, or when it is set above this release, which `hearth serve` refuses).
    package var peerRelease: PeerReleaseTag {
        PeerReleaseTag(
            release: HearthVersion.current,
            minimumPeer: ReleaseRule.floor(self.minimumPeerRelease, for: HearthVersion.current)
                ?? ReleaseRule.oldestPeer(of: HearthVersion.current))
    }
}
