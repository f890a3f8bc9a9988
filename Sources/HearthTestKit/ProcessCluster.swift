public import Foundation
import HearthSystem

/// A cluster of `hearth serve --config` child processes on free loopback ports, each with its own data directory,
/// with fault injection on: what a real-process test needs to kill, restart and partition members. Every wait (a
/// member starting or exiting, a request) happens on a dedicated thread, never on a thread of the cooperative pool.
public final class ProcessCluster {
    /// The member names, `n1` … `nN`, then the nodes that joined.
    public private(set) var ids: [String]
    /// Each member's HTTP port, by name.
    public private(set) var httpPorts: [String: Int]
    /// Each member's peer port, by name.
    public private(set) var peerPorts: [String: Int]
    /// The members that joined the running cluster (`join`), which restart from their data directory alone.
    private var joined: Set<String> = []
    /// The cluster file the members read.
    public let configurationPath: String
    /// The cluster secret the members prove to each other (the file's `secretFile`).
    public let secretPath: String
    /// The administrators' database secret (the file's `databaseSecretFile`), sent with every `/.cluster` request.
    public let adminSecret = "process-cluster-admin-secret"
    private let directory: TemporaryDirectory
    private var processes: [String: ServerProcess] = [:]

    /// Writes a configuration for `count` nodes and starts them all, unless `starting` is false (the test fills their
    /// data directories first, `dataDirectory(_:)`, and starts them with `start(_:)`). `groups` sets the
    /// configuration's Raft groups (nil leaves the key out: one group per shard).
    public init(
        nodes count: Int, shards: Int = 8, groups: Int? = nil, replicationFactor: Int = 3, starting: Bool = true
    ) async throws {
        self.directory = try TemporaryDirectory("hearth-cluster")
        self.ids = (1...count).map { "n\($0)" }
        let ports = try FreePorts.take(2 * count)
        self.httpPorts = Dictionary(uniqueKeysWithValues: self.ids.enumerated().map { ($1, ports[$0]) })
        self.peerPorts = Dictionary(uniqueKeysWithValues: self.ids.enumerated().map { ($1, ports[count + $0]) })
        let nodes = self.ids.enumerated().map { index, id in
            #"{"id": "\#(id)", "host": "127.0.0.1", "httpPort": \#(ports[index]), "peerPort": \#(ports[count + index])}"#
        }
        let rulesPath = self.directory.child("open.rules.json")
        try #"{"rules": {".read": true, ".write": true}}"#.write(toFile: rulesPath, atomically: true, encoding: .utf8)
        self.secretPath = self.directory.child("cluster.secret")
        try "process cluster secret: 32 bytes or more\n".write(
            toFile: self.secretPath, atomically: true, encoding: .utf8)
        let adminPath = self.directory.child("admin.secret")
        try "\(self.adminSecret)\n".write(toFile: adminPath, atomically: true, encoding: .utf8)
        let json = """
            {"name": "test", "nodes": [\(nodes.joined(separator: ", "))], "shards": \(shards),
             \(groups.map { "\"groups\": \($0)," } ?? "")
             "replicationFactor": \(replicationFactor), "rules": "\(rulesPath)", "secretFile": "\(self.secretPath)",
             "databaseSecretFile": "\(adminPath)"}
            """
        self.configurationPath = self.directory.child("cluster.json")
        try json.write(toFile: self.configurationPath, atomically: true, encoding: .utf8)
        guard starting else { return }
        for id in self.ids { try await self.start(id) }
    }

    /// Member `id`'s data directory.
    public func dataDirectory(_ id: String) -> String { self.directory.child(id) }

    /// Kills the members still running; a dedicated thread waits for them to exit, then removes their data.
    deinit {
        let processes = self.processes.values.map(\.process)
        for process in processes { process.signal(SIGKILL) }
        let directory = self.directory
        _ = try? DedicatedThread.start(name: "test-cluster-end") {
            for process in processes { process.wait() }
            directory.remove()
        }.detach()
    }

    /// Starts (or restarts, on its old data) member `id`. A member that exits before listening is started again, up
    /// to three times half a second apart: its ports are fixed, and while it was down another test may have held
    /// one for a moment (`FreePorts` probes candidates by binding them), which a node reports as "Address already
    /// in use". A node that cannot start at all still fails.
    public func start(_ id: String) async throws {
        var attempts = 1
        while true {
            do {
                return try await self.startOnce(id)
            } catch let error as TestClientError where attempts < 3 && error.description.contains("before listening") {
                attempts += 1
                try? await Task.sleep(for: .milliseconds(500))
            }
        }
    }

    private func startOnce(_ id: String) async throws {
        if self.joined.contains(id) {
            self.processes[id] = try await ServerProcess(
                dataDirectory: self.dataDirectory(id), arguments: ["--fault-injection"], choosesPort: false)
            return
        }
        self.processes[id] = try await ServerProcess(
            dataDirectory: self.dataDirectory(id),
            arguments: ["--config", self.configurationPath, "--node", id, "--fault-injection"])
    }

    /// Starts a new node `id` on free ports with `hearth serve --join` through member `seed`'s peer port; returns
    /// once it has joined and listens.
    public func join(_ id: String, through seed: String) async throws {
        guard let seedPort = self.peerPorts[seed] else { throw TestClientError(description: "no member \(seed)") }
        let ports = try FreePorts.take(2)
        self.processes[id] = try await ServerProcess(
            dataDirectory: self.directory.child(id),
            arguments: [
                "--join", "127.0.0.1:\(seedPort)", "--node", id, "--port", "\(ports[0])", "--peer-port",
                "\(ports[1])", "--cluster-secret-file", self.secretPath, "--database-secret-file",
                self.directory.child("admin.secret"),
                "--fault-injection",
            ])
        self.ids.append(id)
        self.httpPorts[id] = ports[0]
        self.peerPorts[id] = ports[1]
        self.joined.insert(id)
    }

    /// Runs `hearth ARGUMENTS` to completion and returns its exit status and output.
    public static func hearth(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await ProcessOutput.run(URL(fileURLWithPath: try ServerProcess.binaryPath()), arguments)
    }

    /// Stops member `id` with `signal` (SIGKILL: a crash) and waits for it to exit.
    public func stop(_ id: String, signal: Int32 = SIGTERM) async {
        await self.processes.removeValue(forKey: id)?.stop(signal: signal)
    }

    /// Sends SIGTERM to every member still running and returns at once: for a `defer` at a test's end, which cannot
    /// wait without blocking its thread (the cluster's `deinit` waits for them on a thread of its own).
    public func terminateAll() {
        for process in self.processes.values { process.terminate() }
    }

    /// The running process of member `id`.
    public func process(_ id: String) -> ServerProcess? { self.processes[id] }

    /// A request to member `id`, on a new connection; one to `/.cluster…` carries the administrator's credential.
    public func request(_ id: String, _ method: String, _ target: String, body: String? = nil) async throws
        -> HTTPTestClient.Response
    {
        guard let port = self.httpPorts[id] else { throw TestClientError(description: "no member \(id)") }
        let headers = target.hasPrefix("/.cluster") ? [("Authorization", "Bearer \(self.adminSecret)")] : []
        return try await HTTPTestClient.request(
            port: port, method, target, body: body, headers: headers, timeoutSeconds: 30)
    }

    /// Whether every member of `ids` (every member, by default) answers `/.ready` with 200 now.
    public func areReady(_ ids: [String]? = nil) async -> Bool {
        for id in ids ?? self.ids where (try? await self.request(id, "GET", "/.ready").status) != 200 { return false }
        return true
    }

    /// Cuts member `id` off from `peers` in both directions (each side drops the other's frames).
    public func partition(_ id: String, from peers: [String]) async throws {
        let list = peers.map { "\"\($0)\"" }.joined(separator: ",")
        _ = try await self.request(id, "POST", "/.cluster/partition", body: #"{"peers":[\#(list)]}"#)
        for peer in peers {
            _ = try await self.request(peer, "POST", "/.cluster/partition", body: #"{"peers":["\#(id)"]}"#)
        }
    }

    /// Restores every link of every running member.
    public func heal() async throws {
        for id in self.processes.keys.sorted() { _ = try await self.request(id, "POST", "/.cluster/heal") }
    }
}
