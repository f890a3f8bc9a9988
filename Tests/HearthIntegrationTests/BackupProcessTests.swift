import Foundation
import HearthCore
import HearthSystem
import HearthTestKit
import Testing

/// `hearth backup` taken while clients star posts (`hearth bench stars`, multi-path writes in fan-out) and restored
/// into a fresh node with `hearth restore`: every post's `starCount` equals its stars and its `user-posts` copy (no
/// multi-path write half in the backup), and every star acknowledged before the backup began is in it.
@Suite(.serialized) struct BackupProcessTests {
    /// A client that only ever adds stars, one at a time, to posts of its own, and remembers which were
    /// acknowledged: the stars a backup begun after them must hold.
    final class Witness: Sendable {
        static let posts = 4
        let acknowledged = Lock<[(post: Int, user: Int)]>([])
        let stop = Flag()
        /// Set when the starring thread has ended.
        let done = Flag()

        static func post(_ post: Int) -> String { "witness-p\(post)" }
        static func author(_ post: Int) -> String { "witness-a\(post)" }

        /// Writes the posts, then stars them from another thread until `stop` is set.
        func start(port: Int) throws {
            let client = try HTTPTestClient(port: port)
            var setup: [String] = []
            for post in 0..<Self.posts {
                let value = #"{"author":"\#(Self.author(post))","starCount":0}"#
                setup.append(#""posts/\#(Self.post(post))":\#(value)"#)
                setup.append(#""user-posts/\#(Self.author(post))/\#(Self.post(post))":\#(value)"#)
            }
            let answer = try client.request("PATCH", "/.json", body: "{" + setup.joined(separator: ",") + "}")
            try #require(answer.status == 200, "\(answer.text)")
            // A thread of its own: a blocking client on a Dispatch worker would hold one of the few threads the
            // whole test run's tasks share.
            try DedicatedThread.start(name: "backup-witness") {
                defer { self.done.set() }
                guard let client = try? HTTPTestClient(port: port) else { return }
                var user = 0
                while !self.stop.isSet {
                    let post = user % Self.posts
                    let increment = #"{".sv":{"increment":1}}"#
                    var update: [String] = []
                    for base in ["posts/\(Self.post(post))", "user-posts/\(Self.author(post))/\(Self.post(post))"] {
                        update.append(#""\#(base)/stars/u\#(user)":true"#)
                        update.append(#""\#(base)/starCount":\#(increment)"#)
                    }
                    guard
                        let answer = try? client.request(
                            "PATCH", "/.json", body: "{" + update.joined(separator: ",") + "}"),
                        answer.status == 200
                    else { return }
                    self.acknowledged.withLock { $0.append((post, user)) }
                    user += 1
                }
            }.detach()
        }
    }

    /// Runs `hearth ARGUMENTS` to its end.
    private static func hearth(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await ProcessOutput.run(URL(fileURLWithPath: try ServerProcess.binaryPath()), arguments)
    }

    /// Waits for `process` to exit without holding a thread of the cooperative pool.
    private static func exit(of process: ChildProcess) async throws {
        while process.isRunning { try await Task.sleep(for: .milliseconds(20)) }
    }

    /// The JSON at `path` of the node on `port`, read on a thread of its own.
    private static func read(_ path: String, port: Int) async throws -> JSONValue {
        let answer = try await onDedicatedThread { try HTTPTestClient(port: port).request("GET", path) }
        try #require(answer.status == 200, "GET \(path): \(answer.text)")
        return try JSONReader.parseValue(answer.body)
    }

    /// An object's members; none for anything else.
    private static func members(_ value: JSONValue?) -> [JSONKey: JSONValue] {
        if case .object(let members)? = value { return members }
        return [:]
    }

    /// Stars posts with 16 clients (`hearth bench stars` against `nodes`) and the witness (on `witness`), takes a
    /// backup with `hearth backup ARGUMENTS --out FILE` in the middle, and returns the witness's stars acknowledged
    /// before the backup began.
    private static func backUpWhileStarring(
        nodes: [Int], witness port: Int, backup arguments: [String], file: String
    ) async throws -> [(post: Int, user: Int)] {
        let witness = Witness()
        try await onDedicatedThread { try witness.start(port: port) }
        defer { witness.stop.set() }
        let bench = try ChildProcess(
            try ServerProcess.binaryPath(),
            [
                "bench", "stars", "--nodes", nodes.map { "127.0.0.1:\($0)" }.joined(separator: ","), "--clients", "16",
                "--posts", "24", "--users", "256", "--duration", "300s",
            ], standardOutput: .discard, standardError: .discard)
        defer { bench.signal() }
        // Into the run: the bench's posts are written and its clients star them, and the witness has stars
        // acknowledged, however long a loaded machine takes to get there. The bench runs until the backup is taken.
        try #require(
            await eventually(seconds: 120, every: 0.2) {
                guard !witness.acknowledged.withLock({ $0.isEmpty }),
                    let answer = try? await HTTPTestClient.request(port: port, "GET", "/posts.json"),
                    answer.status == 200, let posts = try? JSONReader.parseValue(answer.body)
                else { return false }
                return Self.members(posts).values.filter { !Self.members($0["stars"]).isEmpty }.count > Witness.posts
            }, "the bench's clients starred nothing")

        let before = witness.acknowledged.withLock { $0 }
        let backup = try await Self.hearth(["backup"] + arguments + ["--out", file])
        #expect(backup.status == 0, "\(backup.output)")
        bench.signal()
        try await Self.exit(of: bench)
        witness.stop.set()
        #expect(await eventually(seconds: 30) { witness.done.isSet }, "the witness's client did not stop")
        #expect(!FileManager.default.fileExists(atPath: file + ".partial"))
        #expect(!before.isEmpty, "the witness had no star acknowledged before the backup")
        return before
    }

    /// Checks the node on `port`: every post's `starCount` equals its stars and its `user-posts` copy's, the bench
    /// starred more than the witness's posts, and every star in `before` is there.
    private static func verify(port: Int, before: [(post: Int, user: Int)]) async throws {
        let posts = try await Self.read("/posts.json", port: port)
        let copies = try await Self.read("/user-posts.json", port: port)
        var starred = 0
        for (id, post) in Self.members(posts) {
            let stars = Self.members(post["stars"]).count
            let count = post["starCount"]?.intValue
            #expect(count == Int64(stars), "post \(id): starCount \(count.map(String.init) ?? "-"), \(stars) stars")
            guard let author = post["author"]?.stringValue else { continue }
            let copy = copies[author]?[id.string]
            #expect(copy?["starCount"]?.intValue == count, "post \(id): its user-posts copy differs")
            #expect(Self.members(copy?["stars"]).count == stars, "post \(id): its copy has other stars")
            if stars > 0 { starred += 1 }
        }
        #expect(starred > Witness.posts, "the bench's clients starred nothing before the backup")
        for (post, user) in before {
            #expect(
                posts[Witness.post(post)]?["stars"]?["u\(user)"] == .bool(true),
                "star u\(user) on \(Witness.post(post)) was acknowledged before the backup began but is missing")
        }
    }

    @Test func aBackupTakenWhileClientsStarRestoresIntoAFreshNodeWhole() async throws {
        let server = try await ServerProcess()
        defer { server.terminate() }
        let directory = try TemporaryDirectory("backup-process")
        defer { directory.remove() }
        let file = directory.child("stars.backup")
        let before = try await Self.backUpWhileStarring(
            nodes: [server.port], witness: server.port, backup: ["--server", "http://127.0.0.1:\(server.port)"],
            file: file)
        let data = directory.child("restored")
        let restore = try await Self.hearth(["restore", "--in", file, "--data", data])
        #expect(restore.status == 0, "\(restore.output)")
        // Stopped (and waited for) before `directory`, which holds its data, is removed by the defer above.
        let restored = try await ServerProcess(dataDirectory: data)
        do {
            try await Self.verify(port: restored.port, before: before)
        } catch {
            await restored.stop()
            throw error
        }
        await restored.stop()
    }

    /// A backup reads everything: where the rules keep the root from everyone, it takes an administrator's
    /// credential (`--credential-file`, or the file `$HEARTH_CREDENTIAL_FILE` names), and without one it is refused
    /// with a message saying how to give one, leaving no file behind.
    @Test func aBackupNeedsAnAdministratorWhereTheRulesCloseTheRoot() async throws {
        let directory = try TemporaryDirectory("backup-rules")
        defer { directory.remove() }
        try #"{"rules": {"public": {".read": true}}}"#.write(
            toFile: directory.child("rules.json"), atomically: true, encoding: .utf8)
        try "backup-test-admin-secret\n".write(toFile: directory.child("secret"), atomically: true, encoding: .utf8)
        let server = try await ServerProcess(arguments: [
            "--rules", directory.child("rules.json"), "--database-secret-file", directory.child("secret"),
        ])
        defer { server.terminate() }
        let file = directory.child("db.backup")
        let refused = try await Self.hearth(["backup", "--server", "127.0.0.1:\(server.port)", "--out", file])
        #expect(refused.status == 1 && refused.output.contains("--credential-file"), "\(refused.output)")
        #expect(
            !FileManager.default.fileExists(atPath: file) && !FileManager.default.fileExists(atPath: file + ".partial"))
        let taken = try await Self.hearth([
            "backup", "--server", "127.0.0.1:\(server.port)", "--out", file, "--credential-file",
            directory.child("secret"),
        ])
        #expect(taken.status == 0, "\(taken.output)")
        // An administrator's backup holds the stored rules too (`--rules` installs them in `.settings`).
        #expect(taken.output.contains("checksum verified") && taken.output.contains(".settings"), "\(taken.output)")
        var environment = ProcessInfo.processInfo.environment
        environment["HEARTH_CREDENTIAL_FILE"] = directory.child("secret")
        let arguments = ["backup", "--server", "127.0.0.1:\(server.port)", "--out", directory.child("again.backup")]
        let fromEnvironment = try await ProcessOutput.run(
            URL(fileURLWithPath: try ServerProcess.binaryPath()), arguments, environment: environment)
        #expect(fromEnvironment.status == 0, "\(fromEnvironment.output)")
    }

    /// A backup whose connection is cut in the middle of the stream fails, and leaves neither the file nor its
    /// partial copy: nothing that could pass for a backup.
    @Test func aBackupCutOffMidStreamLeavesNoFile() async throws {
        let server = try await ServerProcess()
        defer { server.terminate() }
        let port = server.port
        let filled = try await onDedicatedThread { () -> [HTTPTestClient.Response] in
            let client = try HTTPTestClient(port: port)
            let value = String(repeating: "x", count: 1000)
            return try (0..<8).map { batch in
                let members = (0..<4000).map { #""i\#($0)":"\#(value)""# }.joined(separator: ",")
                return try client.request("PUT", "/items/b\(batch).json", body: "{" + members + "}")
            }
        }
        for answer in filled { try #require(answer.status == 200, "\(answer.text)") }
        let proxy = try FaultyTCPProxy(targetPort: server.port)
        defer { proxy.close() }
        let directory = try TemporaryDirectory("backup-cut")
        defer { directory.remove() }
        let file = directory.child("cut.backup")
        let backup = try ChildProcess(
            try ServerProcess.binaryPath(), ["backup", "--server", "127.0.0.1:\(proxy.port)", "--out", file],
            standardOutput: .pipe, standardError: .standardOutput)
        defer { backup.signal() }
        let started = ContinuousClock.now
        while ((try? FileManager.default.attributesOfItem(atPath: file + ".partial")[.size] as? Int) ?? 0) == 0 {
            try #require(ContinuousClock.now - started < .seconds(30) && backup.isRunning, "the backup never began")
            try await Task.sleep(for: .milliseconds(5))
        }
        proxy.setMode(.stall)
        proxy.dropConnections()
        let output = try #require(backup.standardOutput)
        let text = try await onDedicatedThread { String(decoding: try output.readToEnd(), as: UTF8.self) }
        try await Self.exit(of: backup)
        #expect(backup.termination == .exited(1), "\(text)")
        #expect(
            !FileManager.default.fileExists(atPath: file) && !FileManager.default.fileExists(atPath: file + ".partial"))
    }

    /// The same across a cluster: one cut across every shard, taken through one member, restored into the members
    /// of a fresh three-node cluster (each as on its own machine), which elect leaders, serve it as one database,
    /// take writes and restart from their logs.
    @Test(.timeLimit(.minutes(3))) func aClusterBackupRestoresIntoAFreshClusterWhole() async throws {
        let directory = try TemporaryDirectory("backup-cluster")
        defer { directory.remove() }
        let file = directory.child("cluster.backup")
        let before: [(post: Int, user: Int)]
        do {
            let cluster = try await ProcessCluster(nodes: 3)
            defer { cluster.terminateAll() }
            #expect(await Self.ready(cluster))
            let ports = cluster.ids.compactMap { cluster.httpPorts[$0] }
            let member = try #require(cluster.httpPorts["n2"])
            before = try await Self.backUpWhileStarring(
                nodes: ports, witness: ports[0],
                backup: ["--server", "127.0.0.1:\(member)", "--config", cluster.configurationPath], file: file)
        }
        let fresh = try await ProcessCluster(nodes: 3, starting: false)
        defer { fresh.terminateAll() }
        for id in fresh.ids {
            let restore = try await Self.hearth([
                "restore", "--in", file, "--config", fresh.configurationPath, "--member", id, "--data",
                fresh.dataDirectory(id),
            ])
            #expect(restore.status == 0, "\(restore.output)")
        }
        for id in fresh.ids { try await fresh.start(id) }
        #expect(await Self.ready(fresh))
        for id in ["n1", "n3"] {
            try await Self.verify(port: try #require(fresh.httpPorts[id]), before: before)
        }
        let write = try await fresh.request("n2", "PATCH", "/.json", body: #"{"after-restore":true}"#)
        #expect(write.status == 200, "\(write.text)")
        // A restored member restarts from its own log like any other.
        await fresh.stop("n1")
        try await fresh.start("n1")
        #expect(await Self.ready(fresh))
        #expect(try await fresh.request("n1", "GET", "/after-restore.json").text == "true")
        try await Self.verify(port: try #require(fresh.httpPorts["n1"]), before: before)
    }

    /// Waits until every member answers `/.ready` with 200.
    private static func ready(_ cluster: ProcessCluster) async -> Bool {
        await eventually(seconds: 60, every: 0.1) { await cluster.areReady() }
    }
}
