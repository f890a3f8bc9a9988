import HearthCluster
import HearthNet

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
    /// `--caught-up`: `wait` also waits until every replica of every shard is caught up (`ClusterReport.lagProblems`).
    var waitsForCatchUp = false
    /// `--max-lag N`: with `--caught-up`, the most entries a replica may lack or have yet to apply.
    var maximumLag: Int64 = 64
    /// The member names after the flags, in the order given.
    var members: [String] = []
    /// The administrator's credential sent to the members, once `loadCredential()` has read it (`AdminCredential`);
    /// `nil` when none is named, and then the cluster's layout and operations are refused.
    var credential: String?

    /// A client for the members, with this command's timeout and credential.
    var client: BlockingHTTPClient {
        var client = BlockingHTTPClient(timeout: self.requestTimeout)
        client.credential = self.credential
        return client
    }

    /// Parses `--config FILE [--json] [--timeout S] [--within S] [--caught-up] [--max-lag N] [--credential-file FILE]
    /// [ID…]` and reads the file
    /// and the credential.
    ///
    /// - Throws: `UsageError` for a missing or malformed flag, an unknown member or a credential file that cannot be
    ///   read; the file's own `ClusterConfigurationError` when it cannot be read or breaks a rule.
    init(parsing arguments: [String]) throws {
        var remaining = arguments[...]
        var path: String?
        var credentialFile: String?
        var members: [String] = []
        var printsJSON = false
        var requestTimeout = Duration.seconds(2)
        var waitSeconds = 60
        var waitsForCatchUp = false
        var maximumLag: Int64 = 64
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
            case "--credential-file":
                guard let value = remaining.popFirst() else { throw UsageError("--credential-file needs a file") }
                credentialFile = value
            case "--json": printsJSON = true
            case "--timeout": requestTimeout = .seconds(try seconds(argument))
            case "--within": waitSeconds = try seconds(argument)
            case "--caught-up": waitsForCatchUp = true
            case "--max-lag":
                guard let text = remaining.popFirst(), let number = Int64(text), number >= 0 else {
                    throw UsageError("--max-lag needs a whole number of log entries ≥ 0")
                }
                maximumLag = number
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
        self.waitsForCatchUp = waitsForCatchUp
        self.maximumLag = maximumLag
        self.members = members
        self.credentialFile = credentialFile
    }

    /// `--credential-file`, as given.
    private var credentialFile: String?

    /// Reads the credential (`credential`) from where the command line, the environment or the cluster file says.
    ///
    /// - Throws: `UsageError` when the file named cannot be read or holds no secret.
    mutating func loadCredential() throws {
        self.credential = try AdminCredential.load(
            file: self.credentialFile, cluster: self.cluster, configurationPath: self.configurationPath)
    }

    /// What to do about a 401 from a member.
    static let credentialHint =
        "the cluster's layout and operations are for administrators: name a database secret with databaseSecretFile "
        + "in the cluster file, --credential-file FILE or $HEARTH_CREDENTIAL_FILE"

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
