import Dispatch
import Foundation
import HearthCore
import HearthSystem
import HearthTestKit
import Testing

/// `hearth backup` taken while clients star posts (`hearth bench stars`, multi-path writes in fan-out) and restored
/// into a fresh node with `hearth restore`: every post's `starCount` equals its stars and its `user-posts` copy (no
/// multi-path write half in the backup), and every star acknowledged before the backup began is in it.
@Suite struct BackupProcessTests {
    /// A client that only ever adds stars, one at a time, to posts of its own, and remembers which were
    /// acknowledged: the stars a backup begun after them must hold.
    final class Witness: Sendable {
        static let posts = 4
        let acknowledged = Lock<[(post: Int, user: Int)]>([])
        let stop = Flag()
        let done = DispatchGroup()

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
            self.done.enter()
            DispatchQueue.global().async {
                defer { self.done.leave() }
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
            }
        }
    }

    private static func hearth(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try ProcessOutput.run(URL(fileURLWithPath: try ServerProcess.binaryPath()), arguments)
    }

    /// The JSON at `path` of the node on `port`.
    private static func read(_ path: String, port: Int) throws -> JSONValue {
        let answer = try HTTPTestClient(port: port).request("GET", path)
        try #require(answer.status == 200, "GET \(path): \(answer.text)")
        return try JSONReader.parseValue(answer.body)
    }

    /// An object's members; none for anything else.
    private static func members(_ value: JSONValue?) -> [String: JSONValue] {
        if case .object(let members)? = value { return members }
        return [:]
    }

    @Test func aBackupTakenWhileClientsStarRestoresEveryStarWhole() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let directory = try TemporaryDirectory("backup-process")
        let witness = Witness()
        try witness.start(port: server.port)
        defer {
            witness.stop.set()
            witness.done.wait()
        }
        let bench = Process()
        bench.executableURL = URL(fileURLWithPath: try ServerProcess.binaryPath())
        bench.arguments = [
            "bench", "stars", "--nodes", "127.0.0.1:\(server.port)", "--clients", "16", "--posts", "24", "--users",
            "256", "--duration", "4s",
        ]
        bench.standardOutput = FileHandle.nullDevice
        bench.standardError = FileHandle.nullDevice
        try bench.run()
        defer { if bench.isRunning { bench.terminate() } }
        // Into the run: the bench's posts are written and its clients star them.
        Thread.sleep(forTimeInterval: 2)

        let before = witness.acknowledged.withLock { $0 }
        let file = directory.child("stars.backup")
        let backup = try Self.hearth(["backup", "--server", "http://127.0.0.1:\(server.port)", "--out", file])
        #expect(backup.status == 0, "\(backup.output)")
        bench.waitUntilExit()
        witness.stop.set()
        witness.done.wait()
        #expect(!FileManager.default.fileExists(atPath: file + ".partial"))

        let data = directory.child("restored")
        let restore = try Self.hearth(["restore", "--in", file, "--data", data])
        #expect(restore.status == 0, "\(restore.output)")
        let restored = try ServerProcess(dataDirectory: data)
        defer { restored.stop() }
        let posts = try Self.read("/posts.json", port: restored.port)
        let copies = try Self.read("/user-posts.json", port: restored.port)
        guard case .object(let all) = posts else {
            Issue.record("the restored node has no posts: \(posts)")
            return
        }
        var starred = 0
        for (id, post) in all {
            let stars = Self.members(post["stars"]).count
            let count = post["starCount"]?.intValue
            #expect(count == Int64(stars), "post \(id): starCount \(count.map(String.init) ?? "-"), \(stars) stars")
            guard let author = post["author"]?.stringValue else { continue }
            let copy = copies[author]?[id]
            #expect(copy?["starCount"]?.intValue == count, "post \(id): its user-posts copy differs")
            #expect(Self.members(copy?["stars"]).count == stars, "post \(id): its copy has other stars")
            if stars > 0 { starred += 1 }
        }
        #expect(starred > Witness.posts, "the bench's clients starred nothing before the backup")
        #expect(!before.isEmpty)
        for (post, user) in before {
            #expect(
                posts[Witness.post(post)]?["stars"]?["u\(user)"] == .bool(true),
                "star u\(user) on \(Witness.post(post)) was acknowledged before the backup began but is missing")
        }
    }
}
