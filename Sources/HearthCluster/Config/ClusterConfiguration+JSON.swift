public import HearthCore

/// A configuration written back as the document `init(json:)` reads, so a node that joined a running cluster can
/// keep the configuration the cluster was founded with in its data directory, in the format of the files in
/// `cluster-config/`.
extension ClusterConfiguration {
    public var json: JSONValue {
        var members: [JSONKey: JSONValue] = [
            "name": .string(self.name),
            "nodes": .array(self.nodes.map(\.json)),
            "shards": .int(Int64(self.shards)),
            "replicationFactor": .int(Int64(self.replicationFactor)),
            "shardDepth": .int(Int64(self.shardDepth)),
        ]
        if let groups = self.groups { members["groups"] = .int(Int64(groups)) }
        if let root = self.dataDirectory { members["dataDirectory"] = .string(root) }
        if let path = self.secretFile { members["secretFile"] = .string(path) }
        if let path = self.databaseSecretFile { members["databaseSecretFile"] = .string(path) }
        return .object(members)
    }
}

extension ClusterConfiguration.Node {
    /// The node as one entry of a configuration's `nodes`.
    public var json: JSONValue {
        .object([
            "id": .string(self.id.name), "host": .string(self.host), "httpPort": .int(Int64(self.httpPort)),
            "peerPort": .int(Int64(self.peerPort)),
        ])
    }

    /// Reads one entry of a configuration's `nodes`, checked as a file's are.
    /// - Throws: `ClusterConfigurationError` naming the field at fault.
    public init(json value: JSONValue) throws(ClusterConfigurationError) {
        let document = JSONValue.object(["nodes": .array([value]), "replicationFactor": .int(1)])
        let configuration = try ClusterConfiguration(json: document.jsonBytes())
        guard let node = configuration.nodes.first else {
            throw ClusterConfigurationError(.missingField, field: "nodes[0]", "The node is missing.")
        }
        self = node
    }
}
