import Foundation
import HearthCluster
import HearthDatabase
import HearthNode
import HearthServer

/// `hearth restore --in FILE --data DIR`: makes the data directory of a fresh node from a backup file
/// (`hearth backup`); with `--config cluster.json`, the data directories of a fresh cluster's members, each where
/// `hearth serve --config` looks for it (or under `--data-root DIR`), or of one member (`--member NAME`, on its own
/// machine). The whole file is checked first: a damaged or cut-short file, or a directory that is not empty, is
/// refused and nothing is written.
enum RestoreCommand {
    /// Runs `hearth restore …`; returns 0 once every directory is ready for `hearth serve`.
    static func run(_ arguments: [String]) async throws -> Int32 {
        var remaining = arguments[...]
        var options: [String: String] = [:]
        while let argument = remaining.popFirst() {
            guard ["--in", "--data", "--config", "--member", "--data-root"].contains(argument) else {
                throw UsageError("unknown option '\(argument)'")
            }
            guard let value = remaining.popFirst() else { throw UsageError("\(argument) needs a value") }
            options[argument] = value
        }
        guard let input = options["--in"] else { throw UsageError("restore needs --in FILE: the backup file") }
        let header: BackupHeader
        var started: [String] = []
        if let path = options["--config"] {
            let cluster = try ClusterConfiguration(contentsOfFile: path)
            let directories = try Self.memberDirectories(cluster, options: options)
            header = try await BackupRestore.restoreCluster(from: input, cluster: cluster, directories: directories)
            started = directories.map { member, directory in
                "\(member.name): \(directory) — start it with `hearth serve --config \(path) --node \(member.name)"
                    + " --data \(directory)`"
            }
        } else {
            guard options["--member"] == nil, options["--data-root"] == nil else {
                throw UsageError("--member and --data-root restore a cluster's members: give --config FILE too")
            }
            guard let data = options["--data"] else {
                throw UsageError("restore needs --data DIR (the new node's data directory) or --config FILE")
            }
            header = try BackupRestore.restoreNode(from: input, into: data)
            started = ["\(data) — start it with `hearth serve --data \(data)`"]
        }
        let bytes = (try? FileManager.default.attributesOfItem(atPath: input)[.size] as? Int) ?? 0
        print(BackupCommand.summary(header, file: input, bytes: bytes, verb: "read"))
        print("restored:\n  " + started.joined(separator: "\n  "))
        return 0
    }

    /// Where each member restored goes: with `--member`, that one, in `--data` or where `hearth serve` looks for
    /// it; else every member of the file, under `--data-root DIR` as `DIR/<name>` or where `hearth serve` looks.
    private static func memberDirectories(_ cluster: ClusterConfiguration, options: [String: String]) throws
        -> [(member: NodeID, directory: String)]
    {
        func directory(_ member: NodeID) -> String {
            if let root = options["--data-root"] { return root + "/" + member.name }
            return cluster.dataDirectory(for: member) ?? NodeConfiguration().dataDirectory + "/" + member.name
        }
        guard let name = options["--member"] else {
            guard options["--data"] == nil else {
                throw UsageError("--data names one member's directory: give --member NAME too, or --data-root DIR")
            }
            return cluster.nodeIDs.map { ($0, directory($0)) }
        }
        let member = NodeID(name)
        return [(member, options["--data"] ?? directory(member))]
    }
}
