import Foundation
import HearthTestKit
import Testing

/// `scripts/cluster` driven for real, as a developer runs it: up, status, kill, restart, partition, heal, join,
/// remove, down.
///
/// It runs the debug `hearth` the suite already built (`HEARTH_BINARY`, so the script builds nothing), on a
/// cluster file with free loopback ports and its data in a temporary directory, and keeps its state file there
/// too: it never touches a developer's cluster on 9001–9003 or the repository's `.cluster/`.
@Suite(.serialized) struct ClusterScriptProcessTests {
    /// One `scripts/cluster` invocation's exit status and its standard output and error, interleaved.
    private struct Run {
        let status: Int32
        let output: String
    }

    /// Runs `scripts/cluster` with `arguments` (it works from the repository root, wherever it is started), with
    /// the test's binary and state file.
    private static func script(_ arguments: [String], in directory: TemporaryDirectory) async throws -> Run {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let binary = try ServerProcess.binaryPath()
        var environment = ProcessInfo.processInfo.environment
        environment["HEARTH_BINARY"] = binary
        environment["HEARTH_CLUSTER_STATE"] = directory.child("state")
        environment["HEARTH_CLUSTER_TIMEOUT"] = "60"
        let (status, output) = try await ProcessOutput.run(
            root.appendingPathComponent("scripts/cluster"), arguments, environment: environment)
        return Run(status: status, output: output)
    }

    /// Whether `pid` is a live process (not gone, not a zombie waiting to be reaped).
    private static func isRunning(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return !stat[close...].hasPrefix(") Z")
    }

    /// Whether `pid` is a live node of the cluster in `configuration` (so a reused pid is never killed).
    private static func isNode(_ pid: Int32, of configuration: String) -> Bool {
        guard Self.isRunning(pid), let command = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))
        else { return false }
        return String(decoding: command, as: UTF8.self).contains(configuration)
    }

    private static func pids(in data: String) -> [Int32] {
        ["n1", "n2", "n3", "n4"].compactMap { id in
            (try? String(contentsOfFile: data + "/\(id).pid", encoding: .utf8)).flatMap {
                Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
            }
        }
    }

    @Test(.timeLimit(.minutes(5))) func upStatusKillRestartPartitionHealDown() async throws {
        let directory = try TemporaryDirectory("hearth-cluster-script")
        let data = directory.child("data")
        let ports = try FreePorts.take(6)
        let nodes = (0..<3).map { index in
            #"{"id": "n\#(index + 1)", "host": "127.0.0.1", "httpPort": \#(ports[index]), "#
                + #""peerPort": \#(ports[3 + index])}"#
        }
        let configuration = directory.child("cluster.json")
        try """
        {"name": "script", "nodes": [\(nodes.joined(separator: ", "))], "shards": 4, "replicationFactor": 3,
         "dataDirectory": "\(data)", "secretFile": "\(data)/cluster.secret", "databaseSecretFile": "\(data)/admin.secret"}
        """.write(toFile: configuration, atomically: true, encoding: .utf8)
        let started = try await Self.script(["up", configuration], in: directory)
        let pids = Self.pids(in: data)
        defer {
            for pid in Self.pids(in: data) + pids where Self.isNode(pid, of: configuration) { kill(pid, SIGKILL) }
            directory.remove()
        }
        #expect(started.status == 0, "\(started.output)")
        #expect(started.output.contains("http://127.0.0.1:\(ports[0])"))
        #expect(started.output.contains("cluster script: 3 members, 4 shards, 3 replicas each: healthy"))
        #expect(pids.count == 3 && pids.allSatisfy(Self.isRunning))
        // `up` made both secrets, readable by their owner only; the layout is for administrators.
        #expect(started.output.contains("created the cluster secret"), "\(started.output)")
        for file in ["cluster.secret", "admin.secret"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: data + "/" + file)
            #expect((attributes[.posixPermissions] as? Int) == 0o600, "\(file)")
        }
        #expect(try await HTTPTestClient.request(port: ports[0], "GET", "/.cluster").status == 401)

        // A second `up` refuses while the nodes run.
        let again = try await Self.script(["up", configuration], in: directory)
        #expect(again.status != 0)
        #expect(again.output.contains("still running"), "\(again.output)")

        // A crash shows at once: n2 down, and the status fails until n2 is back and ready.
        #expect(try await Self.script(["kill", "n2"], in: directory).status == 0)
        let crashed = try await Self.script(["status"], in: directory)
        #expect(crashed.status == 1)
        #expect(crashed.output.contains("n2 is down"), "\(crashed.output)")
        let restarted = try await Self.script(["restart", "n2"], in: directory)
        #expect(restarted.status == 0, "\(restarted.output)")
        #expect(restarted.output.contains("ready: n2"))
        #expect(await self.healthy(directory))

        // A partition shows in both sides' links; healed, the cluster is whole again.
        let cut = try await Self.script(["partition", "n1", "n3"], in: directory)
        #expect(cut.status == 0, "\(cut.output)")
        #expect(cut.output.contains("n1: cut off from n3") && cut.output.contains("n3: cut off from n1"))
        let split = try await Self.script(["status", "--json", "--timeout", "10"], in: directory)
        #expect(split.output.contains(#""partitioned": true"#), "\(split.output)")
        #expect(try await Self.script(["heal"], in: directory).status == 0)
        #expect(await self.healthy(directory))

        // A fourth node joins, then is removed (and stopped).
        let extra = try FreePorts.take(2)
        let joined = try await Self.script(["join", "n4", "\(extra[0])", "\(extra[1])"], in: directory)
        #expect(joined.status == 0, "\(joined.output)")
        #expect(joined.output.contains("ready: n4"))
        #expect(joined.output.contains("cluster script: 4 members"))
        let removed = try await Self.script(["remove", "n4"], in: directory)
        #expect(removed.status == 0, "\(removed.output)")
        #expect(removed.output.contains("n4 is removed"))
        #expect(Self.pids(in: data).count == 3)
        #expect(await self.healthy(directory))

        // `down` stops every node and removes the pid files; `down --wipe` deletes their data.
        let stopped = try await Self.script(["down"], in: directory)
        #expect(stopped.status == 0, "\(stopped.output)")
        #expect(!Self.pids(in: data).contains(where: Self.isRunning))
        #expect(Self.pids(in: data).isEmpty)
        #expect(try await Self.script(["status"], in: directory).status == 1)
        #expect(try await Self.script(["down", "--wipe"], in: directory).status == 0)
        #expect(!FileManager.default.fileExists(atPath: data + "/n1"))
    }

    /// Polls `scripts/cluster status` for up to a minute until it exits 0 (elections after a restart or a heal take
    /// a moment, longer on a machine busy with the rest of the suite).
    private func healthy(_ directory: TemporaryDirectory) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if (try? await Self.script(["status"], in: directory).status) == 0 { return true }
            try? await Task.sleep(for: .milliseconds(250))
        }
        return false
    }
}
