/// Who is in a Hearth cluster and how its data is split: the member list with each node's HTTP and peer
/// addresses, the number of virtual shards, how many Raft groups replicate them, and how many replicas each group
/// has.
///
/// Every node of a cluster reads the same file (`cluster-config/*.json`, documented in `cluster-config/README.md`),
/// so every node derives the same placement from it. A value is always valid: both initialisers check every rule
/// and throw a `ClusterConfigurationError` naming the field otherwise.
public struct ClusterConfiguration: Sendable, Hashable {
    /// One member: its name and where it listens.
    public struct Node: Sendable, Hashable {
        public let id: NodeID
        /// A numeric IPv4 or IPv6 address (the peer transport does not resolve names).
        public let host: String
        /// Where clients reach the node (REST, SSE, WebSocket).
        public let httpPort: Int
        /// Where the other nodes reach it (the peer transport).
        public let peerPort: Int

        public init(id: NodeID, host: String, httpPort: Int, peerPort: Int) {
            self.id = id
            self.host = host
            self.httpPort = httpPort
            self.peerPort = peerPort
        }
    }

    public static let defaultName = "hearth"
    public static let defaultShards = 16
    public static let defaultReplicationFactor = 3
    public static let defaultShardDepth = 2

    /// The cluster's name, sent in every peer handshake: nodes of different clusters refuse to talk.
    public let name: String
    /// The members, in the file's order.
    public let nodes: [Node]
    /// The most virtual shards a cluster may have: far above any useful count, and what every member, joining ones
    /// included (the join reply carries the count as 32 bits), reads back exactly.
    public static let maximumShards = 65_536

    /// Virtual shards per namespace.
    public let shards: Int
    /// How many Raft groups the shards are spread over, when the file sets it (`groups`, from 1 to `shards`); `nil`
    /// keeps one group per shard, the layout of every cluster founded before the field existed. Fixed when the
    /// cluster is founded: it decides which group's log holds each shard's entries.
    public let groups: Int?
    /// Replicas per Raft group (each group's size).
    public let replicationFactor: Int
    /// How many path levels decide a location's shard.
    public let shardDepth: Int
    /// The root folder under which each node keeps `<root>/<id>`, when the file sets one.
    public let dataDirectory: String?
    /// The security rules file every founding member installs at start (a path, relative to the working directory
    /// like `dataDirectory`); without one, members let only administrators in until rules are given.
    public let rules: String?
    /// The file holding the cluster secret every member proves in each peer handshake (a path, relative to the
    /// working directory like `rules`); a member of a cluster does not start without one.
    public let secretFile: String?
    /// The file of database secrets every member takes as `--database-secret-file`: the administrators'
    /// credentials, which `hearth cluster` also reads to ask for the cluster's layout and to change it.
    public let databaseSecretFile: String?

    /// Checks every rule of a configuration built in code.
    ///
    /// - Throws: `ClusterConfigurationError` naming the first field at fault.
    public init(
        name: String = ClusterConfiguration.defaultName,
        nodes: [Node],
        shards: Int = ClusterConfiguration.defaultShards,
        groups: Int? = nil,
        replicationFactor: Int = ClusterConfiguration.defaultReplicationFactor,
        shardDepth: Int = ClusterConfiguration.defaultShardDepth,
        dataDirectory: String? = nil,
        rules: String? = nil,
        secretFile: String? = nil,
        databaseSecretFile: String? = nil
    ) throws(ClusterConfigurationError) {
        self.name = name
        self.nodes = nodes
        self.shards = shards
        self.groups = groups
        self.replicationFactor = replicationFactor
        self.shardDepth = shardDepth
        self.dataDirectory = dataDirectory
        self.rules = rules
        self.secretFile = secretFile
        self.databaseSecretFile = databaseSecretFile
        try self.validate()
    }

    /// How many Raft groups hold the shards: `groups`, or one per shard when the file sets none.
    public var groupCount: Int { self.groups ?? self.shards }

    /// The member ids, sorted.
    public var nodeIDs: [NodeID] { self.nodes.map(\.id).sorted() }

    /// The member named `id`, if any.
    public func node(_ id: NodeID) -> Node? {
        self.nodes.first { $0.id == id }
    }

    /// Where node `id` keeps its data: `<dataDirectory>/<id>`, or `nil` when the file sets no root.
    public func dataDirectory(for id: NodeID) -> String? {
        guard let root = self.dataDirectory else { return nil }
        return root.hasSuffix("/") ? root + id.name : root + "/" + id.name
    }
}
