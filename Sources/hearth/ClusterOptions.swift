import HearthCluster

/// The command line of `hearth cluster SUBCOMMAND`: the cluster file every subcommand needs, the flags some take,
/// and the member names given after them (checked against the file).
struct ClusterOptions {
    /// The file's path, as given.
    var configurationPath: String
    /// The cluster the file describes.
    var cluster: ClusterConfiguration
    /// `--json`: print the merged status document instead of tables.
    var printsJSON = false
    /// `--timeout SECONDS`: how long one request to one member may take.
    var requestTimeout: Duration = .seconds(2)
    /// `--within SECONDS`: how long `wait` waits for the members to be ready.
    var waitSeconds = 60
    /// The member names after the flags, in the order given.
    var members: [String] = []

    /// Parses `--config FILE [--json] [--timeout S] [--within S] [ID…]` and reads the file.
    ///
    /// - Throws: `UsageError` for a missing or malformed flag or an unknown member; the file's own
    ///   `ClusterConfigurationError` when it cannot be read or breaks a rule.
    init(parsing arguments: [String]) throws {
        var remaining = arguments[...]
        var path: String?
        var members: [String] = []
        var printsJSON = false
        var requestTimeout = Duration.seconds(2)
        var waitSeconds = 60
        func seconds(_ flag: String) throws -> Int {
            guard let text = remaining.popFirst(), let number = Int(text), number >= 1 else {
                throw UsageError("\(flag) needs a whole number of seconds ≥ 1")
            }
            return number
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--config":
                guard let value = remaining.popFirst() else { throw UsageError("--config needs a file") }
                path = value
            case "--json": printsJSON = true
            case "--timeout": requestTimeout = .seconds(try seconds(argument))
            case "--within": waitSeconds = try seconds(argument)
            default:
                guard !argument.hasPrefix("-") else { throw UsageError("unknown option '\(argument)'") }
                members.append(argument)
            }
        }
        guard let path else {
            throw UsageError("cluster needs --config FILE: the file the members were started with")
        }
        let cluster = try ClusterConfiguration(contentsOfFile: path)
        self.configurationPath = path
        self.cluster = cluster
        self.printsJSON = printsJSON
        self.requestTimeout = requestTimeout
        self.waitSeconds = waitSeconds
        self.members = members
    }

    /// Refuses member names that are not members of `cluster`.
    func requireKnownMembers(of cluster: ClusterConfiguration) throws {
        for member in self.members where cluster.node(NodeID(member)) == nil {
            throw UsageError(
                "\(member) is not a member of \(cluster.name); its members are "
                    + cluster.nodeIDs.map(\.name).joined(separator: ", "))
        }
    }

    /// Refuses member names for a subcommand that takes none.
    func requireNoMembers(_ subcommand: String) throws {
        guard self.members.isEmpty else {
            throw UsageError(
                "cluster \(subcommand) takes no member names (got \(self.members.joined(separator: " ")))")
        }
    }
}
