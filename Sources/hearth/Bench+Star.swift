import Foundation
import HearthCore
import HearthDatabase
import HearthNode
import HearthServer
import HearthSystem
import HearthWire

/// `hearth bench star`: the docs' fan-out star through the core alone (write rules, coordinator, shards, log, read
/// view) with no network or HTTP, so the core's cost per star can be told apart from the front ends'.
extension Bench {
    /// Where the second copy of the star lives: `multi` puts it in another shard than `posts/p1`, `single` in the
    /// same one (namespace `bench`, 16 shards), as in scripts/bench-stars.sh.
    static func starCopies(shape: String) throws -> [String] {
        switch shape {
        case "multi": return ["posts/p1", "user-posts/author/p1"]
        case "single": return ["posts/p1", "user-posts/author4/p1"]
        default: throw UsageError("star --shape is multi or single, not \(shape)")
        }
    }

    /// Runs `clients` tasks, each with one star in flight, for `seconds` on a fresh data directory (`--fsync
    /// batch`), then prints stars per second and the process's CPU time per star, and checks the stored counts.
    static func star(clients: Int, seconds: Double, shape: String) async throws {
        let copies = try self.starCopies(shape: shape)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-bench-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var configuration = NodeConfiguration()
        configuration.dataDirectory = directory
        configuration.port = 0
        let database = try await Database.open(configuration: configuration, log: Log(level: .warning))
        let started = ContinuousClock.now
        let deadline = started + .milliseconds(Int(seconds * 1000))
        let cpuBefore = self.processCPUSeconds()
        let stars = try await withThrowingTaskGroup(of: Int.self) { group in
            for client in 0..<clients {
                group.addTask {
                    var sent = 0
                    while ContinuousClock.now < deadline {
                        let mutations = try Self.starMutations(copies: copies, uid: "c\(client)x\(sent)")
                        _ = try await database.write(namespace: "bench", mutations: mutations)
                        sent += 1
                    }
                    return sent
                }
            }
            return try await group.reduce(0, +)
        }
        let cpu = self.processCPUSeconds() - cpuBefore
        let elapsed = self.milliseconds(since: started) / 1000
        let root = database.root("bench")
        await database.close()
        for copy in copies {
            let post = root.node(at: try Self.path(copy))
            let count = post.child(Key(unchecked: "starCount")).leafValue
            let starred = post.child(Key(unchecked: "stars")).childCount
            guard count == .int(Int64(stars)), starred == stars else {
                throw UsageError("\(copy): starCount \(String(describing: count)) and \(starred) stars after \(stars)")
            }
        }
        print(
            String(
                format: "star %@: %d clients, %d stars in %.1f s: %.0f stars/s, %.1f µs CPU per star", shape, clients,
                stars, elapsed, Double(stars) / elapsed, cpu / Double(stars) * 1e6))
    }

    /// The four mutations of one star, through the same write rules as a REST PATCH at the root.
    static func starMutations(copies: [String], uid: String) throws -> [Mutation] {
        var members: [JSONKey: JSONValue] = [:]
        for copy in copies {
            members["\(copy)/stars/\(uid)"] = .bool(true)
            members["\(copy)/starCount"] = .object([".sv": .object(["increment": .int(1)])])
        }
        return try WriteRules.update(members, at: .root)
    }

    static func path(_ text: String) throws -> Path {
        try WriteRules.location(text, allowingPriority: false).path
    }

    /// User plus system CPU time of this process so far, in seconds.
    static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        return user + system
    }
}
