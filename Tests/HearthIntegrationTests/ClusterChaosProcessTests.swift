import Foundation
import HearthCore
import HearthDatabase
import HearthServer
import HearthTestKit
import Synchronization
import Testing

/// Three `hearth serve --config` processes under load from every side — multi-shard star increments, unique
/// writes, and compare-and-set transactions, each through every node — while the leader of the hottest shard is
/// killed with SIGKILL and restarted again and again. Afterwards nothing acknowledged is missing, the stars are
/// all-or-nothing, the counters lie between what was acknowledged and what was attempted, and every node holds the
/// same tree.
@Suite(.serialized) struct ClusterChaosProcessTests {
    /// How many times the hot shard's leader is killed (`HEARTH_CHAOS_KILLS`, default 20).
    static let kills = ProcessInfo.processInfo.environment["HEARTH_CHAOS_KILLS"].flatMap(Int.init) ?? 20
    static let shards = 8

    /// What the clients did: acknowledged and attempted operations of each kind.
    final class History: Sendable {
        struct State {
            var ackedStars: [Int] = Array(repeating: 0, count: 4)
            var attemptedStars: [Int] = Array(repeating: 0, count: 4)
            var ackedKeys: Set<String> = []
            var attemptedKeys: Set<String> = []
            var ackedTransactions = 0
            var attemptedTransactions = 0
        }
        let state = Mutex(State())
    }

    /// One request on a fresh connection to a node; nil when the node could not be reached or did not answer.
    private static func request(
        _ port: Int, _ method: String, _ target: String, body: String? = nil, headers: [(String, String)] = []
    ) -> HTTPTestClient.Response? {
        guard let client = try? HTTPTestClient(port: port, timeoutSeconds: 20) else { return nil }
        return try? client.request(method, target, body: body, headers: headers)
    }

    /// Client `client` stars the hot post (its star, the post's count and its own copy of the count, in two
    /// shards) and writes unique keys, through node after node, until `stop`.
    private static func starAndWrite(client: Int, ports: [Int], history: History, stop: Flag) {
        var sequence = 0
        while !stop.isSet {
            sequence += 1
            let port = ports[sequence % ports.count]
            history.state.withLock { $0.attemptedStars[client] += 1 }
            let star = """
                {"posts/hot/stars/c\(client)-\(sequence)": true,
                 "posts/hot/starCount": {".sv": {"increment": 1}},
                 "user-posts/c\(client)/hot/starCount": {".sv": {"increment": 1}}}
                """
            if Self.request(port, "PATCH", "/.json", body: star)?.status == 200 {
                history.state.withLock { $0.ackedStars[client] += 1 }
            }
            let key = "c\(client)-\(sequence)"
            history.state.withLock { _ = $0.attemptedKeys.insert(key) }
            if Self.request(port, "PUT", "/sets/\(key).json", body: "true")?.status == 200 {
                history.state.withLock { _ = $0.ackedKeys.insert(key) }
            }
        }
    }

    /// A client incrementing `/tx/counter` by compare-and-set (ETag, `if-match`), retrying a stale read.
    private static func transact(ports: [Int], history: History, stop: Flag) {
        var attempt = 0
        while !stop.isSet {
            attempt += 1
            let port = ports[attempt % ports.count]
            guard let read = Self.request(port, "GET", "/tx/counter.json", headers: [("X-Firebase-ETag", "true")]),
                read.status == 200, let etag = read.header("ETag")
            else { continue }
            let next = (Int(read.text) ?? 0) + 1
            history.state.withLock { $0.attemptedTransactions += 1 }
            let written = Self.request(port, "PUT", "/tx/counter.json", body: "\(next)", headers: [("if-match", etag)])
            switch written?.status {
            case 200?: history.state.withLock { $0.ackedTransactions += 1 }
            case 412?: history.state.withLock { $0.attemptedTransactions -= 1 }
            default: break
            }
        }
    }

    /// The node leading `shard`, as a live member's `/.cluster` reports it.
    private static func leader(of shard: Int, cluster: ProcessCluster, alive: [String]) async -> String? {
        for id in alive {
            guard let response = try? await cluster.request(id, "GET", "/.cluster"), response.status == 200,
                let document = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
                let shards = document["shards"] as? [[String: Any]],
                let entry = shards.first(where: { $0["shard"] as? Int == shard }),
                let leader = entry["leader"] as? String
            else { continue }
            return leader
        }
        return nil
    }

    @Test(.timeLimit(.minutes(10))) func killingTheHotLeaderLosesNothingAcknowledged() async throws {
        let cluster = try await ProcessCluster(nodes: 3, shards: Self.shards)
        defer { cluster.terminateAll() }
        #expect(
            await eventually(seconds: 60, every: 0.1) { await cluster.areReady() })
        let router = ShardRouter(shardCount: Self.shards, shardDepth: 2)
        let hot = try #require(router.shard(namespace: "default", path: try Path(validating: "/posts/hot")))
        let ports = cluster.ids.compactMap { cluster.httpPorts[$0] }
        let history = History()
        let stop = Flag()
        defer { stop.set() }
        let load = Task {
            await withTaskGroup(of: Void.self) { group in
                for client in 0..<4 {
                    group.addTask {
                        _ = try? await onDedicatedThread {
                            Self.starAndWrite(client: client, ports: ports, history: history, stop: stop)
                        }
                    }
                }
                group.addTask {
                    _ = try? await onDedicatedThread { Self.transact(ports: ports, history: history, stop: stop) }
                }
            }
        }
        var killed: [String] = []
        for _ in 0..<Self.kills {
            try await Task.sleep(for: .milliseconds(300))
            guard let leader = await Self.leader(of: hot, cluster: cluster, alive: cluster.ids) else { continue }
            await cluster.stop(leader, signal: SIGKILL)
            killed.append(leader)
            try await Task.sleep(for: .milliseconds(200))
            try await cluster.start(leader)
            // A node that does not come back (it crashed on restart) ends the test at once.
            try #require(
                await eventually(seconds: 60, every: 0.1) {
                    (try? await cluster.request(leader, "GET", "/.ready").status) == 200
                }, "\(leader) did not come back")
        }
        try await Task.sleep(for: .milliseconds(500))
        stop.set()
        await load.value
        #expect(killed.count == Self.kills, "the hot shard had no leader to kill")

        // Every node converges on one tree.
        var trees: [String] = []
        #expect(
            await eventually(seconds: 60, every: 0.2) {
                trees = []
                for id in cluster.ids {
                    trees.append((try? await cluster.request(id, "GET", "/.json?format=export").text) ?? "")
                }
                return Set(trees).count == 1 && !(trees.first ?? "").isEmpty
            }, "the nodes hold different trees")
        let tree = try #require(
            try JSONSerialization.jsonObject(with: Data((trees.first ?? "{}").utf8)) as? [String: Any])
        let outcome = history.state.withLock { $0 }
        let posts = tree["posts"] as? [String: Any]
        let hotPost = posts?["hot"] as? [String: Any]
        let stars = (hotPost?["stars"] as? [String: Any]) ?? [:]
        let starCount = hotPost?["starCount"] as? Int ?? 0
        // All or nothing: the count is the number of stars.
        #expect(starCount == stars.count)
        // Counter check: between what was acknowledged and what was attempted.
        #expect(starCount >= outcome.ackedStars.reduce(0, +))
        #expect(starCount <= outcome.attemptedStars.reduce(0, +))
        let userPosts = tree["user-posts"] as? [String: Any]
        for client in 0..<4 {
            let copy = ((userPosts?["c\(client)"] as? [String: Any])?["hot"] as? [String: Any])?["starCount"] as? Int
            let own = stars.keys.filter { $0.hasPrefix("c\(client)-") }.count
            #expect((copy ?? 0) == own, "client \(client)'s copy of the count")
        }
        // Set check: every acknowledged key is there, and nothing that was never written.
        let keys = Set(((tree["sets"] as? [String: Any]) ?? [:]).keys)
        #expect(outcome.ackedKeys.subtracting(keys).isEmpty, "acknowledged keys lost")
        #expect(keys.subtracting(outcome.attemptedKeys).isEmpty)
        let counter = (tree["tx"] as? [String: Any])?["counter"] as? Int ?? 0
        #expect(counter >= outcome.ackedTransactions && counter <= outcome.attemptedTransactions)
        #expect(outcome.ackedStars.reduce(0, +) > 0 && outcome.ackedKeys.count > 0)
        print(
            "cluster-chaos: \(killed.count) kills of the hot leader; stars acknowledged \(outcome.ackedStars.reduce(0, +))"
                + " of \(outcome.attemptedStars.reduce(0, +)) (count \(starCount)), keys \(outcome.ackedKeys.count) of "
                + "\(outcome.attemptedKeys.count), transactions \(outcome.ackedTransactions) of "
                + "\(outcome.attemptedTransactions) (counter \(counter))")
    }
}
