public import Foundation

/// A cluster of `hearth serve --config` child processes on free loopback ports, each with its own data directory,
/// with fault injection on: what a real-process test needs to kill, restart and partition members.
public final class ProcessCluster {
    /// The member names, `n1` … `nN`.
    public let ids: [String]
    /// Each member's HTTP port, by name.
    public let httpPorts: [String: Int]
    /// The cluster file the members read.
    public let configurationPath: String
    private let directory: TemporaryDirectory
    private var processes: [String: ServerProcess] = [:]

    /// Writes a configuration for `count` nodes and starts them all.
    public init(nodes count: Int, shards: Int = 8, replicationFactor: Int = 3) throws {
        self.directory = try TemporaryDirectory("hearth-cluster")
        self.ids = (1...count).map { "n\($0)" }
        let ports = try FreePorts.take(2 * count)
        self.httpPorts = Dictionary(uniqueKeysWithValues: self.ids.enumerated().map { ($1, ports[$0]) })
        let nodes = self.ids.enumerated().map { index, id in
            #"{"id": "\#(id)", "host": "127.0.0.1", "httpPort": \#(ports[index]), "peerPort": \#(ports[count + index])}"#
        }
        let json = """
            {"name": "test", "nodes": [\(nodes.joined(separator: ", "))], "shards": \(shards),
             "replicationFactor": \(replicationFactor)}
            """
        self.configurationPath = self.directory.child("cluster.json")
        try json.write(toFile: self.configurationPath, atomically: true, encoding: .utf8)
        for id in self.ids { try self.start(id) }
    }

    deinit {
        for process in self.processes.values { process.stop(signal: SIGKILL) }
        self.directory.remove()
    }

    /// Starts (or restarts, on its old data) member `id`.
    public func start(_ id: String) throws {
        self.processes[id] = try ServerProcess(
            dataDirectory: self.directory.child(id),
            arguments: ["--config", self.configurationPath, "--node", id, "--fault-injection"])
    }

    /// Stops member `id` with `signal` (SIGKILL: a crash) and waits for it to exit.
    public func stop(_ id: String, signal: Int32 = SIGTERM) {
        self.processes.removeValue(forKey: id)?.stop(signal: signal)
    }

    /// Stops every member still running.
    public func stopAll() {
        for id in self.processes.keys.sorted() { self.stop(id) }
    }

    /// The running process of member `id`.
    public func process(_ id: String) -> ServerProcess? { self.processes[id] }

    /// A request to member `id`, on a new connection.
    public func request(_ id: String, _ method: String, _ target: String, body: String? = nil) throws
        -> HTTPTestClient.Response
    {
        guard let port = self.httpPorts[id] else { throw TestClientError(description: "no member \(id)") }
        return try HTTPTestClient(port: port, timeoutSeconds: 30).request(method, target, body: body)
    }

    /// Cuts member `id` off from `peers` in both directions (each side drops the other's frames).
    public func partition(_ id: String, from peers: [String]) throws {
        let list = peers.map { "\"\($0)\"" }.joined(separator: ",")
        _ = try self.request(id, "POST", "/.cluster/partition", body: #"{"peers":[\#(list)]}"#)
        for peer in peers { _ = try self.request(peer, "POST", "/.cluster/partition", body: #"{"peers":["\#(id)"]}"#) }
    }

    /// Restores every link of every running member.
    public func heal() throws {
        for id in self.processes.keys.sorted() { _ = try self.request(id, "POST", "/.cluster/heal") }
    }
}
