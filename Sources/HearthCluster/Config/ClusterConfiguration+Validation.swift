/// The rules every configuration obeys, checked once when it is made.
extension ClusterConfiguration {
    /// The longest node id or cluster name accepted.
    public static let maximumNameLength = 32

    func validate() throws(ClusterConfigurationError) {
        try Self.checkName(self.name, field: "name", what: "cluster name")
        guard !self.nodes.isEmpty else {
            throw ClusterConfigurationError(
                .outOfRange,
                field: "nodes",
                "nodes is empty: list at least one node as {\"id\", \"host\", \"httpPort\", \"peerPort\"}."
            )
        }
        var ids: [NodeID: Int] = [:]
        var listeners: [String: String] = [:]
        for (index, node) in self.nodes.enumerated() {
            let field = "nodes[\(index)]"
            try Self.checkName(node.id.name, field: "\(field).id", what: "node id")
            if let earlier = ids[node.id] {
                throw ClusterConfigurationError(
                    .duplicateID,
                    field: "\(field).id",
                    "\(field).id \"\(node.id)\" is already used by nodes[\(earlier)]; give every node its own id."
                )
            }
            ids[node.id] = index
            try Self.checkHost(node.host, field: "\(field).host")
            for (key, port) in [("httpPort", node.httpPort), ("peerPort", node.peerPort)] {
                guard (1...65535).contains(port) else {
                    throw ClusterConfigurationError(
                        .outOfRange,
                        field: "\(field).\(key)",
                        "\(field).\(key) is \(port); use a TCP port in 1...65535."
                    )
                }
                let address = "\(node.host):\(port)"
                if let earlier = listeners[address] {
                    throw ClusterConfigurationError(
                        .duplicateAddress,
                        field: "\(field).\(key)",
                        "\(field).\(key) listens on \(address), which \(earlier) already uses; give every HTTP and "
                            + "peer listener its own host:port."
                    )
                }
                listeners[address] = "\(field).\(key)"
            }
        }
        try self.validateSharding()
    }

    private func validateSharding() throws(ClusterConfigurationError) {
        guard (1...Self.maximumShards).contains(self.shards) else {
            throw ClusterConfigurationError(
                .outOfRange,
                field: "shards",
                "shards is \(self.shards); use from 1 to \(Self.maximumShards) virtual shards per namespace (the "
                    + "default is 16)."
            )
        }
        if let groups = self.groups, !(1...self.shards).contains(groups) {
            throw ClusterConfigurationError(
                .outOfRange,
                field: "groups",
                "groups is \(groups) but shards is \(self.shards); use a value from 1 to \(self.shards) (1 keeps "
                    + "every shard in one Raft group, so a write across shards commits in one entry), or leave "
                    + "groups out for one group per shard."
            )
        }
        guard (1...self.nodes.count).contains(self.replicationFactor) else {
            throw ClusterConfigurationError(
                .outOfRange,
                field: "replicationFactor",
                "replicationFactor is \(self.replicationFactor) but the cluster has \(self.nodes.count) node(s); use "
                    + "a value from 1 to \(self.nodes.count) (3 survives the loss of one node)."
            )
        }
        guard self.shardDepth >= 1 else {
            throw ClusterConfigurationError(
                .outOfRange,
                field: "shardDepth",
                "shardDepth is \(self.shardDepth); use at least 1 (the default is 2)."
            )
        }
        for (key, path) in [("secretFile", self.secretFile), ("databaseSecretFile", self.databaseSecretFile)]
        where path?.isEmpty == true {
            throw ClusterConfigurationError(
                .outOfRange, field: key, "\(key) is empty; name a file, or leave the key out.")
        }
        if let root = self.dataDirectory, root.isEmpty {
            throw ClusterConfigurationError(
                .outOfRange,
                field: "dataDirectory",
                "dataDirectory is empty; name a folder, or leave the key out."
            )
        }
    }

    /// Ids and names are short simple names (`n1`, `eu-west-2`), safe in paths, logs and the handshake.
    fileprivate static func checkName(_ name: String, field: String, what: String) throws(ClusterConfigurationError) {
        let allowed = name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: "_")
        }
        guard allowed, (1...Self.maximumNameLength).contains(name.utf8.count), name.utf8.first != UInt8(ascii: "-")
        else {
            throw ClusterConfigurationError(
                .invalidName,
                field: field,
                "\(field) \"\(name)\" is not a valid \(what); use 1 to \(Self.maximumNameLength) letters, digits, "
                    + "'-' or '_', not starting with '-' (for example \"n1\")."
            )
        }
    }

    /// Hosts are numeric addresses: the reactor never blocks on name resolution.
    fileprivate static func checkHost(_ host: String, field: String) throws(ClusterConfigurationError) {
        let isIPv4 =
            host.split(separator: ".", omittingEmptySubsequences: false).count == 4
            && host.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { part in
                guard let value = Int(part), part.count <= 3 else { return false }
                return (0...255).contains(value)
            }
        let isIPv6 =
            host.contains(":")
            && host.utf8.allSatisfy { byte in
                byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".")
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                    || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
            }
        guard isIPv4 || isIPv6 else {
            throw ClusterConfigurationError(
                .invalidName,
                field: field,
                "\(field) \"\(host)\" is not a numeric IPv4 or IPv6 address; write it as digits (for example "
                    + "\"127.0.0.1\"), since nodes do not resolve host names."
            )
        }
    }
}

extension ClusterConfiguration.Node {
    /// Checks one member's own fields (id, host, ports) as a file's nodes are checked: what a node joining a running
    /// cluster is held to.
    /// - Throws: `ClusterConfigurationError` naming `field` and the part at fault.
    public func validate(field: String) throws(ClusterConfigurationError) {
        try ClusterConfiguration.checkName(self.id.name, field: "\(field).id", what: "node id")
        try ClusterConfiguration.checkHost(self.host, field: "\(field).host")
        for (key, port) in [("httpPort", self.httpPort), ("peerPort", self.peerPort)] where !(1...65535).contains(port)
        {
            throw ClusterConfigurationError(
                .outOfRange, field: "\(field).\(key)", "\(field).\(key) is \(port); use a TCP port in 1...65535.")
        }
        guard self.httpPort != self.peerPort else {
            throw ClusterConfigurationError(
                .duplicateAddress, field: "\(field).peerPort",
                "\(field) listens for HTTP and peers on the same port \(self.peerPort); give each its own.")
        }
    }
}
