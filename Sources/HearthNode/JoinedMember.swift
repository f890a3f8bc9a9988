public import HearthCluster
import HearthCore
package import HearthStorage

/// What a node that joined a running cluster keeps in its data directory (`joined.json`), so it restarts as a
/// member with no more than `hearth serve --data DIR`: who it is, the configuration the cluster was founded with
/// (its name, shards and replication factor, and the member list's starting point) and the members when it joined
/// (its first peers, until its replica of the member list has caught up).
///
/// ```
/// {"node": {"id": "n4", "host": "127.0.0.1", "httpPort": 9004, "peerPort": 9104},
///  "cluster": {"name": "local-3", "nodes": [...], "shards": 16, "replicationFactor": 3, "shardDepth": 2},
///  "members": [{"id": "n1", ...}, ...]}
/// ```
public struct JoinedMember: Sendable, Equatable {
    public static let fileName = "joined.json"

    /// This node.
    public var node: ClusterConfiguration.Node
    /// The configuration the cluster was founded with.
    public var founding: ClusterConfiguration
    /// The members when this node joined.
    public var members: [ClusterConfiguration.Node]
    /// Where the node's secrets are, as given when it joined.
    public var secretFiles: SecretFiles

    /// The files a joined node reads its secrets from at every start, as absolute paths (a restart may run in
    /// another working directory).
    public struct SecretFiles: Sendable, Equatable {
        /// The cluster secret it proves to its peers (`--cluster-secret-file`).
        public var cluster: String?
        /// The administrators' database secrets (`--database-secret-file`).
        public var database: String?

        public init(cluster: String? = nil, database: String? = nil) {
            self.cluster = cluster
            self.database = database
        }
    }

    public init(
        node: ClusterConfiguration.Node, founding: ClusterConfiguration, members: [ClusterConfiguration.Node],
        secretFiles: SecretFiles = SecretFiles()
    ) {
        self.node = node
        self.founding = founding
        self.members = members
        self.secretFiles = secretFiles
    }

    /// The joined member whose state `directory` on `fileSystem` holds, or nil when it holds none (a founding
    /// member's directory, or an empty one).
    /// - Throws: `ClusterNodeError` naming the file when it cannot be read.
    package static func load(directory: String, fileSystem: any FileSystem) throws -> JoinedMember? {
        let path = directory + "/" + Self.fileName
        do {
            guard try fileSystem.kind(of: path) != nil else { return nil }
            let document = try JSONReader.parseValue(try fileSystem.readAll(path))
            guard let node = document["node"], let cluster = document["cluster"],
                case .array(let members)? = document["members"]
            else { throw ClusterNodeError("it lacks node, cluster or members") }
            return JoinedMember(
                node: try ClusterConfiguration.Node(json: node),
                founding: try ClusterConfiguration(json: cluster.jsonBytes()),
                members: try members.map { value throws in try ClusterConfiguration.Node(json: value) },
                secretFiles: SecretFiles(
                    cluster: document["secretFile"]?.stringValue, database: document["databaseSecretFile"]?.stringValue)
            )
        } catch {
            throw ClusterNodeError(
                "\(path) cannot be read (\(error)); it records how this node joined its cluster. Restore it, or "
                    + "empty the data directory and join again with --join.")
        }
    }

    /// Writes the file into `directory` on `fileSystem` atomically and durably (`FileSystem.replaceFile`).
    /// - Throws: `StorageError` naming the file and why it could not be written.
    package func save(directory: String, fileSystem: any FileSystem) throws(StorageError) {
        var members: [JSONKey: JSONValue] = [
            "node": self.node.json, "cluster": self.founding.json, "members": .array(self.members.map(\.json)),
        ]
        if let path = self.secretFiles.cluster { members["secretFile"] = .string(path) }
        if let path = self.secretFiles.database { members["databaseSecretFile"] = .string(path) }
        let document = JSONValue.object(members)
        try fileSystem.replaceFile(directory + "/" + Self.fileName, with: document.jsonBytes(pretty: true))
    }
}
