import Foundation
import HearthCluster
import HearthFrontEnds
import HearthNet
import HearthNode
import HearthRules
import HearthServer
import HearthStorage
import HearthSystem

/// `hearth serve`: runs a node until SIGTERM or SIGINT, then shuts it down gracefully.
///
/// A graceful shutdown that has not finished `shutdownGrace` after the signal (a request that never completes holds
/// the front end's drain) is cut short: the process exits with status 1 and says so. Every acknowledged write is
/// durable in the log by then, so nothing acknowledged is lost; requests still in flight get no answer.
enum Serve {
    static let shutdownGrace: Double = 30
    static func run(_ arguments: [String]) async throws {
        let configuration = try self.configuration(from: arguments)
        // The kernel's default soft limit of 1,024 descriptors is kept for old select()-based programs; a node's
        // clients each need one, so it takes all the hard limit allows.
        DescriptorLimit.raiseToHard()
        let log = Log(level: configuration.logLevel)
        let runtime = NodeRuntime(configuration: configuration, log: log)
        let task = Task {
            try await runtime.run { port in
                FileHandle.standardOutput.write(Data("hearth listening on http://\(configuration.host):\(port)\n".utf8))
            }
        }
        signal(SIGTERM, SIG_IGN)
        signal(SIGINT, SIG_IGN)
        let sources = [SIGTERM, SIGINT].map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                log.info("node.stopping", ["signal": number == SIGTERM ? "SIGTERM" : "SIGINT"])
                task.cancel()
                DispatchQueue.global().asyncAfter(deadline: .now() + Self.shutdownGrace) {
                    log.critical(
                        "node.shutdown_timeout",
                        ["seconds": "\(Int(Self.shutdownGrace))", "action": "exiting; acknowledged writes are durable"])
                    exit(1)
                }
            }
            source.resume()
            return source
        }
        defer { sources.forEach { $0.cancel() } }
        try await task.value
    }

    static func configuration(from arguments: [String]) throws -> NodeConfiguration {
        var configuration = NodeConfiguration()
        var remaining = arguments[...]
        var given: Set<String> = []
        var configPath: String?
        var projectID: String?
        var authKeysPath: String?
        var secretFiles = JoinedMember.SecretFiles()
        func value(_ flag: String) throws -> String {
            guard let value = remaining.popFirst() else { throw UsageError("\(flag) needs a value") }
            return value
        }
        func integer(_ flag: String, minimum: Int = 0) throws -> Int {
            let text = try value(flag)
            guard let number = Int(text), number >= minimum else {
                throw UsageError("\(flag) needs a whole number ≥ \(minimum), not '\(text)'")
            }
            return number
        }
        while let flag = remaining.popFirst() {
            given.insert(flag)
            switch flag {
            case "--config": configPath = try value(flag)
            case "--node": configuration.node = NodeID(try value(flag))
            case "--fault-injection": configuration.allowsFaultInjection = true
            case "--join": configuration.joinThrough = try value(flag)
            case "--peer-port": configuration.peerPort = try integer(flag, minimum: 1)
            case "--host": configuration.host = try value(flag)
            case "--port": configuration.port = try integer(flag)
            case "--data": configuration.dataDirectory = try value(flag)
            case "--namespace": configuration.defaultNamespace = try value(flag)
            case "--max-write-bytes": configuration.maximumWriteBytes = try integer(flag, minimum: 1)
            case "--max-import-bytes": configuration.maximumImportBytes = try integer(flag, minimum: 1)
            case "--shards": configuration.shardCount = try integer(flag, minimum: 1)
            case "--shard-depth": configuration.shardDepth = try integer(flag, minimum: 1)
            case "--snapshot-every": configuration.snapshotEveryRecords = try integer(flag, minimum: 1)
            case "--snapshot-seconds": configuration.snapshotIntervalSeconds = Double(try integer(flag, minimum: 1))
            case "--keep-alive-seconds": configuration.keepAliveSeconds = Double(try integer(flag, minimum: 1))
            case "--catch-up-hold-seconds":
                configuration.catchUpHoldSeconds = try integer(flag)
                guard configuration.catchUpHoldSeconds <= 600 else {
                    throw UsageError(
                        "--catch-up-hold-seconds holds clients at most 600 s, not \(configuration.catchUpHoldSeconds)")
                }
            case "--max-outbound-bytes": configuration.outboundBufferLimit = try integer(flag, minimum: 1024)
            case "--max-connections": configuration.maximumConnections = try integer(flag, minimum: 1)
            case "--send-helpers": configuration.sendHelpers = try integer(flag, minimum: 0)
            case "--max-client-memory": configuration.maximumClientMemory = try integer(flag, minimum: 1024 * 1024)
            case "--client-soft-limit-bytes": configuration.outputSoftLimitBytes = try integer(flag, minimum: 1024)
            case "--client-soft-limit-seconds":
                configuration.outputSoftLimitSeconds = Double(try integer(flag))
            case "--min-body-rate": configuration.minimumBodyBytesPerSecond = try integer(flag)
            case "--body-deadline-seconds": configuration.bodyDeadlineSeconds = Double(try integer(flag, minimum: 1))
            case "--max-message-bytes": configuration.maximumWireMessageBytes = try integer(flag, minimum: 1024)
            case "--max-queued-bytes": configuration.maximumWireQueuedBytes = try integer(flag, minimum: 1024)
            case "--max-listens-per-session": configuration.maximumListensPerSession = try integer(flag, minimum: 1)
            case "--max-ondisconnects-per-session":
                configuration.maximumOnDisconnectsPerSession = try integer(flag, minimum: 1)
            case "--max-ondisconnect-bytes":
                configuration.maximumOnDisconnectBytesPerSession = try integer(flag, minimum: 1024)
            case "--rules": configuration.rules = try Self.rules(fromFile: try value(flag))
            case "--database-secret-file":
                let path = try value(flag)
                configuration.databaseSecrets = try Self.secrets(fromFile: path)
                secretFiles.database = Self.absolute(path)
            case "--cluster-secret-file": secretFiles.cluster = Self.absolute(try value(flag))
            case "--minimum-peer-release":
                let text = try value(flag)
                guard let release = HearthRelease(parsing: text),
                    ReleaseRule.floor(release, for: HearthVersion.current) != nil
                else {
                    throw UsageError(
                        "--minimum-peer-release needs a release MAJOR.MINOR.PATCH no newer than this one "
                            + "(\(HearthVersion.release)), not '\(text)'")
                }
                configuration.minimumPeerRelease = release
            case "--allow-unsigned-tokens": configuration.allowsUnsignedTokens = true
            case "--project-id": projectID = try value(flag)
            case "--auth-keys": authKeysPath = try value(flag)
            case "--owner-credential":
                switch try value(flag) {
                case "accept": configuration.acceptsOwnerCredential = true
                case "refuse": configuration.acceptsOwnerCredential = false
                case let other: throw UsageError("--owner-credential must be accept or refuse, not '\(other)'")
                }
            case "--fsync":
                let text = try value(flag)
                guard let mode = FsyncMode(rawValue: text) else {
                    throw UsageError("--fsync must be always, batch or off, not '\(text)'")
                }
                configuration.fsync = mode
            case "--log-level":
                let text = try value(flag)
                guard let level = LogLevel(name: text) else {
                    throw UsageError("--log-level must be debug, info, warning, error or critical, not '\(text)'")
                }
                configuration.logLevel = level
            default:
                throw UsageError("unknown option '\(flag)'")
            }
        }
        switch (projectID, authKeysPath) {
        case (let projectID?, let path?):
            configuration.idTokens = try Self.idTokens(projectID: projectID, keysFile: path)
            configuration.authKeysFile = path
        case (nil, nil): break
        default: throw UsageError("--project-id and --auth-keys go together: ID tokens are checked against both")
        }
        if configuration.joinThrough != nil {
            return try self.joining(configuration, secretFiles: secretFiles, given: given, configPath: configPath)
        }
        guard let configPath else {
            if let joined = try JoinedMember.load(directory: configuration.dataDirectory, fileSystem: PosixFileSystem())
            {
                return try self.rejoining(joined, configuration, secretFiles: secretFiles, given: given)
            }
            for flag in ["--node", "--fault-injection", "--peer-port", "--cluster-secret-file"]
            where given.contains(flag) {
                throw UsageError("\(flag) needs --config or --join: it names a member of a cluster")
            }
            if given.contains("--catch-up-hold-seconds") {
                throw UsageError("--catch-up-hold-seconds needs --config or --join: only a cluster member catches up")
            }
            return configuration
        }
        var member = try self.member(of: ClusterConfiguration(contentsOfFile: configPath), configuration, given: given)
        member.clusterSecret = try Self.clusterSecret(
            secretFiles.cluster, or: member.cluster?.secretFile, from: "secretFile in \(configPath)")
        return member
    }

    /// `path` as an absolute path, so a joined node's restart in another working directory still finds it.
    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    /// The cluster secret from `--cluster-secret-file` (`flag`), else from the file `fallback` names (the cluster
    /// configuration's `secretFile`, or the one a joined node remembers), said to come from `source`.
    /// - Throws: `UsageError` when neither names a file; `ClusterConfigurationError` when the file is missing,
    ///   unreadable, empty or too short.
    static func clusterSecret(_ flag: String?, or fallback: String?, from source: String) throws -> PeerClusterSecret {
        if let flag { return try ClusterConfiguration.clusterSecret(fromFile: flag, what: "--cluster-secret-file") }
        guard let fallback else {
            throw UsageError(
                "a cluster member needs the cluster secret its peers prove, and none is named: add \"secretFile\" to "
                    + "the cluster configuration or pass --cluster-secret-file FILE ("
                    + ClusterConfiguration.secretAdvice + ")")
        }
        return try ClusterConfiguration.clusterSecret(fromFile: fallback, what: source)
    }

    /// The text of the file a flag names, or a usage error that says which flag's file cannot be read.
    static func text(of path: String, for flag: String) throws -> String {
        do {
            return try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw UsageError("\(flag) \(path) cannot be read: \(error.localizedDescription)")
        }
    }

    /// A rules file, refused (with the line of its mistake) before the node starts.
    static func rules(fromFile path: String) throws -> InstalledRules {
        let text = try Self.text(of: path, for: "--rules")
        do {
            return try InstalledRules(text: text)
        } catch {
            throw UsageError("--rules \(path): \(error)")
        }
    }

    /// The verifier of a project's Firebase Auth ID tokens, with the keys in `keysFile` (Google's certificates as
    /// JSON, or a JWK set); a file with one bad key stops the node with what is wrong.
    static func idTokens(projectID: String, keysFile path: String) throws -> IDTokenVerifier {
        var file = TokenKeysFile(path: path)
        do {
            return IDTokenVerifier(projectID: projectID, keys: try file.changedKeys() ?? [:])
        } catch {
            throw UsageError("--auth-keys: \(error)")
        }
    }

    /// Database secrets, one per line (blank lines and surrounding spaces ignored); kept out of the command line,
    /// where every user of the machine could read them. `flag` names where the path came from in errors.
    static func secrets(fromFile path: String, for flag: String = "--database-secret-file") throws -> [String] {
        let secrets = try Self.text(of: path, for: flag).split(whereSeparator: \.isNewline).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        .filter { !$0.isEmpty }
        guard !secrets.isEmpty else { throw UsageError("\(flag) \(path) holds no secret") }
        return secrets
    }

    /// `--join HOST:PEERPORT`: a node joining a running cluster, with its name, addresses and data directory from
    /// the command line (the member list records them, so they must be fixed).
    private static func joining(
        _ base: NodeConfiguration, secretFiles: JoinedMember.SecretFiles, given: Set<String>, configPath: String?
    ) throws -> NodeConfiguration {
        var configuration = base
        guard configPath == nil else {
            throw UsageError(
                "--join and --config exclude each other: --config starts a founding member, --join adds a new one")
        }
        guard configuration.node != nil else { throw UsageError("--join needs --node: the new member's name") }
        guard configuration.peerPort != nil else {
            throw UsageError("--join needs --peer-port: where the other members reach this one")
        }
        guard configuration.port != 0 else {
            throw UsageError("--join needs a fixed --port (not 0): the member list records it for the others")
        }
        for flag in ["--shards", "--shard-depth"] where given.contains(flag) {
            throw UsageError("\(flag) cannot be given with --join: a joining node takes it from the cluster")
        }
        guard secretFiles.cluster != nil else {
            throw UsageError(
                "--join needs --cluster-secret-file: the members' cluster secret, which a joining node must prove")
        }
        configuration.clusterSecret = try Self.clusterSecret(secretFiles.cluster, or: nil, from: "")
        configuration.joinSecretFiles = secretFiles
        return configuration
    }

    /// A node that joined earlier, restarting from its data directory (`joined.json`): its name and addresses are
    /// the ones the member list recorded.
    private static func rejoining(
        _ joined: JoinedMember, _ base: NodeConfiguration, secretFiles: JoinedMember.SecretFiles, given: Set<String>
    ) throws -> NodeConfiguration {
        var configuration = base
        if let node = configuration.node, node != joined.node.id {
            throw UsageError(
                "\(configuration.dataDirectory) holds member \(joined.node.id.name), not \(node.name); pass its own --data"
            )
        }
        for flag in ["--host", "--port", "--peer-port", "--shards", "--shard-depth"] where given.contains(flag) {
            throw UsageError(
                "\(flag) cannot be given to restart \(joined.node.id.name): the member list recorded its addresses "
                    + "when it joined (see \(configuration.dataDirectory)/\(JoinedMember.fileName))")
        }
        configuration.cluster = joined.founding
        configuration.node = joined.node.id
        configuration.joined = joined
        configuration.host = joined.node.host
        configuration.port = joined.node.httpPort
        configuration.shardCount = joined.founding.shards
        configuration.shardDepth = joined.founding.shardDepth
        configuration.clusterSecret = try Self.clusterSecret(
            secretFiles.cluster, or: joined.secretFiles.cluster,
            from: "the cluster secret file \(configuration.dataDirectory)/\(JoinedMember.fileName) names")
        if !given.contains("--database-secret-file"), let path = joined.secretFiles.database {
            configuration.databaseSecrets = try Self.secrets(fromFile: path)
        }
        return configuration
    }

    /// A cluster member's configuration: address, port, shards and data directory from the cluster file, unless a
    /// flag given on the command line says otherwise (`--host`, `--port`, `--data`).
    private static func member(
        of cluster: ClusterConfiguration, _ base: NodeConfiguration, given: Set<String>
    ) throws -> NodeConfiguration {
        var configuration = base
        guard let node = configuration.node else {
            throw UsageError(
                "--config needs --node: which of \(cluster.nodeIDs.map(\.name).joined(separator: ", ")) this one is")
        }
        guard let member = cluster.node(node) else {
            throw UsageError(
                "--node \(node.name) is not in the configuration; its nodes are "
                    + cluster.nodeIDs.map(\.name).joined(separator: ", "))
        }
        for flag in ["--shards", "--shard-depth"] where given.contains(flag) {
            throw UsageError("\(flag) cannot be given with --config: every member takes it from the cluster file")
        }
        configuration.cluster = cluster
        if !given.contains("--rules"), let rules = cluster.rules {
            configuration.rules = try Self.rules(fromFile: rules)
        }
        if !given.contains("--database-secret-file"), let path = cluster.databaseSecretFile {
            configuration.databaseSecrets = try Self.secrets(fromFile: path, for: "databaseSecretFile")
        }
        configuration.shardCount = cluster.shards
        configuration.shardDepth = cluster.shardDepth
        if !given.contains("--host") { configuration.host = member.host }
        if !given.contains("--port") { configuration.port = member.httpPort }
        if !given.contains("--data"), let directory = cluster.dataDirectory(for: node) {
            configuration.dataDirectory = directory
        } else if !given.contains("--data") {
            configuration.dataDirectory = base.dataDirectory + "/" + node.name
        }
        return configuration
    }
}
