import HearthCore

/// Reading a configuration file with HearthCore's JSON reader: every key is checked at every level, so a misspelled
/// field (`nodes[1].htppPort`) is refused by name instead of silently falling back to a default.
extension ClusterConfiguration {
    private static let topLevelKeys: Set<String> = [
        "name", "nodes", "shards", "groups", "replicationFactor", "shardDepth", "dataDirectory", "rules", "secretFile",
        "databaseSecretFile",
    ]
    private static let nodeKeys: Set<String> = ["id", "host", "httpPort", "peerPort"]

    /// Parses and checks a configuration document.
    ///
    /// - Throws: `ClusterConfigurationError` naming the field at fault (`.unreadable` when it is not JSON).
    public init(json bytes: [UInt8]) throws(ClusterConfigurationError) {
        let document: JSONValue
        do {
            document = try JSONReader.parseValue(bytes)
        } catch {
            throw ClusterConfigurationError(
                .unreadable,
                field: "",
                "The cluster configuration is not valid JSON (\(error.message) at byte \(error.offset)); fix the "
                    + "syntax, see cluster-config/README.md."
            )
        }
        let members = try Self.object(document, field: "the configuration", allowed: Self.topLevelKeys)
        guard case .array(let entries) = try Self.required(members, "nodes", field: "nodes") else {
            throw Self.wrongType("nodes", expected: "an array of nodes")
        }
        var nodes: [Node] = []
        for (index, entry) in entries.enumerated() {
            nodes.append(try Self.node(entry, field: "nodes[\(index)]"))
        }
        try self.init(
            name: try Self.string(members["name"], field: "name") ?? Self.defaultName,
            nodes: nodes,
            shards: try Self.integer(members["shards"], field: "shards") ?? Self.defaultShards,
            groups: try Self.integer(members["groups"], field: "groups"),
            replicationFactor: try Self.integer(members["replicationFactor"], field: "replicationFactor")
                ?? Self.defaultReplicationFactor,
            shardDepth: try Self.integer(members["shardDepth"], field: "shardDepth") ?? Self.defaultShardDepth,
            dataDirectory: try Self.string(members["dataDirectory"], field: "dataDirectory"),
            rules: try Self.string(members["rules"], field: "rules"),
            secretFile: try Self.string(members["secretFile"], field: "secretFile"),
            databaseSecretFile: try Self.string(members["databaseSecretFile"], field: "databaseSecretFile")
        )
    }

    /// Parses and checks a configuration given as text.
    public init(json text: String) throws(ClusterConfigurationError) {
        try self.init(json: Array(text.utf8))
    }

    private static func node(_ value: JSONValue, field: String) throws(ClusterConfigurationError) -> Node {
        let members = try Self.object(value, field: field, allowed: Self.nodeKeys)
        func requiredString(_ key: String) throws(ClusterConfigurationError) -> String {
            let value = try Self.required(members, key, field: "\(field).\(key)")
            guard let text = try Self.string(value, field: "\(field).\(key)") else {
                throw Self.wrongType("\(field).\(key)", expected: "a string")
            }
            return text
        }
        func requiredInteger(_ key: String) throws(ClusterConfigurationError) -> Int {
            let value = try Self.required(members, key, field: "\(field).\(key)")
            guard let number = try Self.integer(value, field: "\(field).\(key)") else {
                throw Self.wrongType("\(field).\(key)", expected: "an integer")
            }
            return number
        }
        return Node(
            id: NodeID(try requiredString("id")),
            host: try requiredString("host"),
            httpPort: try requiredInteger("httpPort"),
            peerPort: try requiredInteger("peerPort")
        )
    }

    private static func object(
        _ value: JSONValue,
        field: String,
        allowed: Set<String>
    ) throws(ClusterConfigurationError) -> [JSONKey: JSONValue] {
        guard case .object(let members) = value else { throw Self.wrongType(field, expected: "an object") }
        let prefix = field == "the configuration" ? "" : "\(field)."
        if let unknown = members.keys.map(\.string).filter({ !allowed.contains($0) }).sorted().first {
            throw ClusterConfigurationError(
                .unknownKey,
                field: prefix + unknown,
                "\(prefix + unknown) is not a configuration key; remove it or use one of "
                    + "\(allowed.sorted().joined(separator: ", ")) (see cluster-config/README.md)."
            )
        }
        return members
    }

    private static func required(
        _ members: [JSONKey: JSONValue],
        _ key: String,
        field: String
    ) throws(ClusterConfigurationError) -> JSONValue {
        guard let value = members[JSONKey(key)] else {
            throw ClusterConfigurationError(
                .missingField,
                field: field,
                "\(field) is missing; add it (see cluster-config/README.md)."
            )
        }
        return value
    }

    private static func string(_ value: JSONValue?, field: String) throws(ClusterConfigurationError) -> String? {
        guard let value else { return nil }
        guard case .string(let text) = value else { throw Self.wrongType(field, expected: "a string") }
        return text
    }

    private static func integer(_ value: JSONValue?, field: String) throws(ClusterConfigurationError) -> Int? {
        guard let value else { return nil }
        guard case .int(let number) = value, let exact = Int(exactly: number) else {
            throw Self.wrongType(field, expected: "an integer")
        }
        return exact
    }

    private static func wrongType(_ field: String, expected: String) -> ClusterConfigurationError {
        ClusterConfigurationError(.wrongType, field: field, "\(field) must be \(expected); fix its value.")
    }
}
