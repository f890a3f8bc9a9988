import HearthCluster
import HearthNet

/// `hearth cluster …`: what an operator, or `scripts/cluster`, runs against a cluster through its members' HTTP
/// operations endpoints (`/.health`, `/.ready`, `/.cluster`), so that operating a local cluster needs nothing but
/// `hearth` and a shell.
enum ClusterCommand {
    private enum Subcommand: String {
        case status, wait, partition, heal, describe, remove
    }

    /// Runs `hearth cluster SUBCOMMAND …` and returns the exit status: 0 when it did what it says (for `status`:
    /// the cluster is healthy), 1 otherwise.
    static func run(_ arguments: [String]) throws -> Int32 {
        guard let name = arguments.first else {
            throw UsageError("cluster needs a subcommand: status, wait, partition, heal, remove or describe")
        }
        guard let subcommand = Subcommand(rawValue: name) else {
            throw UsageError("unknown cluster subcommand '\(name)'")
        }
        var options = try ClusterOptions(parsing: Array(arguments.dropFirst()))
        if subcommand != .describe {
            try options.loadCredential()
            // The file names the founding members; nodes that joined later come from the members themselves.
            options.cluster = ClusterMembers.discover(options.cluster, with: options.client)
            // `wait` also waits for a member that is joining and not in the list yet.
            if subcommand != .wait { try options.requireKnownMembers(of: options.cluster) }
        }
        switch subcommand {
        case .status:
            try options.requireNoMembers(name)
            return ClusterStatusCommand.run(options)
        case .wait:
            return ClusterWaitCommand.run(options)
        case .partition:
            return try ClusterFaultCommand.partition(options)
        case .heal:
            try options.requireNoMembers(name)
            return ClusterFaultCommand.heal(options)
        case .remove:
            return try ClusterRemoveCommand.run(options, cluster: options.cluster)
        case .describe:
            try options.requireKnownMembers(of: options.cluster)
            try options.requireNoMembers(name)
            print(Self.description(of: options.cluster), terminator: "")
            return 0
        }
    }

    /// The file as lines a shell reads with `read -r`: `name NAME`, `root DIR`, `secret FILE` (the cluster secret),
    /// `admin FILE` (the database secrets; each `-` when the file sets none), then `node ID HOST HTTPPORT PEERPORT`
    /// per member in the file's order.
    static func description(of cluster: ClusterConfiguration) -> String {
        var lines = [
            "name \(cluster.name)", "root \(cluster.dataDirectory ?? "-")", "secret \(cluster.secretFile ?? "-")",
            "admin \(cluster.databaseSecretFile ?? "-")",
        ]
        for node in cluster.nodes {
            lines.append("node \(node.id.name) \(node.host) \(node.httpPort) \(node.peerPort)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
