import HearthCore
import HearthTestKit
import HearthWire
import Testing

@testable import HearthServer

/// A crash keeps a prefix of the node's write-ahead log. For a multi-shard update with other writes interleaved, every
/// prefix is recovered as `Database.open` recovers (`Recovery`, then finishing prepared transactions): the update
/// must be all or nothing in the read view and in every shard, and committed exactly when its decision was logged.
@Suite struct CrashRecoveryModelTests {
    private static let router = ShardRouter(shardCount: 4, shardDepth: 2)

    /// A finished run: the log, what the update writes, and where each other write's record sits.
    struct Scenario {
        var wal: [ShardCluster.Record]
        /// The update's paths and the node each holds right after it.
        var effects: [(path: Path, after: Node)]
        /// Writes outside the update, by the position of their record in the log.
        var writes: [(position: Int, path: Path, value: Node)]

        /// The position of the anchor's commit decision.
        var decision: Int? {
            self.wal.firstIndex { if case .decide(_, commit: true, _) = $0.entry { true } else { false } }
        }

        /// The position of the record that finished the update in the shard owning the deep `path` (nil for a
        /// spine path, which no other write touches).
        func finishPosition(of path: Path, router: ShardRouter) -> Int? {
            guard let shard = router.shard(namespace: "default", path: path) else { return nil }
            return self.wal.firstIndex { record in
                switch record.entry {
                case .decide, .finish: record.shard == shard
                case .write, .prepare: false
                }
            }
        }
    }

    @Test(arguments: [(1, false), (2, false), (3, true), (4, true), (5, false), (6, true)] as [(UInt64, Bool)])
    func everyPrefixOfTheLogRecoversTheUpdateAllOrNothing(seed: UInt64, spine: Bool) throws {
        let scenario = try Self.run(seed: seed, spine: spine)
        let decision = try #require(scenario.decision)
        #expect(scenario.wal.count > 11, "the anchor logs its part with the decision, so one record fewer than before")
        for length in 0...scenario.wal.count {
            let prefix = scenario.wal[..<length]
            let recovered = try ShardCluster.recovered(
                router: Self.router, snapshot: nil, records: prefix, after: 0)
            let context = "seed \(seed) spine \(spine), crash after \(length) of \(scenario.wal.count) records"
            try Self.check(
                recovered, scenario: scenario, length: length, committed: length > decision, context: context)
            // A second crash while recovery logs its finishes changes nothing.
            let finishes = recovered.wal
            for kept in 0..<finishes.count {
                let again = try ShardCluster.recovered(
                    router: Self.router, snapshot: nil, records: Array(prefix) + finishes[..<kept], after: 0)
                #expect(again.view.roots == recovered.view.roots, "\(context), then after \(kept) recovery records")
                #expect(again.machines.map(\.trees) == recovered.machines.map(\.trees), "\(context)")
            }
        }
    }

    /// The recovered node against the scenario: the update all or nothing, every other write exactly as far as its
    /// record survived, nothing left prepared, and the shards joining into the view.
    private static func check(
        _ recovered: ShardCluster, scenario: Scenario, length: Int, committed: Bool, context: String
    ) throws {
        #expect(recovered.view.feed.isQuiescent, "\(context): the view waits for a part")
        #expect(recovered.machines.allSatisfy { $0.intents.isEmpty && $0.readLocks.isEmpty }, "\(context)")
        let seeded = scenario.writes.filter { $0.position < length }
        for (path, after) in scenario.effects {
            // The newest of: the writes to the path that survived, and the update where it was logged in the
            // path's shard (or at the end, when recovery finished it).
            var events = seeded.filter { $0.path == path }.map { (position: $0.position, value: $0.value) }
            if committed {
                let finished = scenario.finishPosition(of: path, router: Self.router)
                events.append((finished.map { $0 < length ? $0 : Int.max } ?? Int.max, after))
            }
            let expected = events.max { $0.position < $1.position }?.value ?? .empty
            #expect(recovered.visible(path) == expected, "\(context): \(path) in the view")
            if let shard = Self.router.shard(namespace: "default", path: path) {
                let copy = recovered.machines[shard].node(namespace: "default", at: path)
                #expect(copy == expected, "\(context): \(path) in shard \(shard)")
            } else {
                // A spine value is cut over every shard: their parts join into it.
                let parts = recovered.machines.map { $0.node(namespace: "default", at: path) }
                #expect(Node.union(parts) == expected, "\(context): \(path) over the shards")
            }
        }
        let effectPaths = Set(scenario.effects.map(\.path))
        for path in Set(scenario.writes.map(\.path)) where !effectPaths.contains(path) {
            let expected = seeded.last { $0.path == path }?.value ?? .empty
            #expect(recovered.visible(path) == expected, "\(context): \(path)")
        }
        let joined = Node.union(recovered.machines.map { $0.node(namespace: "default", at: .root) })
        #expect(joined == recovered.visible(.root), "\(context): the shards do not join into the view")
    }

    /// Seeds two counters, runs a three-shard update (plus a spine value when `spine`) with single-shard writes
    /// landing between its records, then a few more writes.
    private static func run(seed: UInt64, spine: Bool) throws -> Scenario {
        var random = SeededRandom(seed: seed)
        let posts = Fixture.path("posts")
        let keys = try #require(Fixture.keys("p", under: posts, router: Self.router, shards: [1, 3, 2, 0]))
        let (a, b, c, d) = (keys[0], keys[1], keys[2], keys[3])
        var cluster = ShardCluster(router: Self.router)
        var writes: [(position: Int, path: Path, value: Node)] = []
        var counter: Int64 = 100
        func single(_ cluster: inout ShardCluster, _ path: Path, _ value: Node) {
            if case .committed = cluster.write([.set(path, WriteValue(node: value))]) {
                writes.append((cluster.wal.count - 1, path, value))
            }
        }
        single(&cluster, Fixture.path("posts/\(a)/starCount"), Node(.int(10)))
        single(&cluster, Fixture.path("posts/\(b)/count"), Node(.int(5)))
        // posts/c/flag is the update's own path: a write there waits until the update finished in its shard.
        let others = ["posts/\(a)/other", "posts/\(b)/other", "posts/\(c)/other", "posts/\(d)/x", "posts/\(c)/flag"]
            .map(Fixture.path)
        var mutations = [
            try Fixture.set("posts/\(a)/starCount", #"{".sv":{"increment":1}}"#),
            try Fixture.set("posts/\(b)/count", #"{".sv":{"increment":1}}"#),
            try Fixture.set("posts/\(c)/flag", "true"),
        ]
        var effects: [(path: Path, after: Node)] = [
            (Fixture.path("posts/\(a)/starCount"), Node(.int(11))),
            (Fixture.path("posts/\(b)/count"), Node(.int(6))),
            (Fixture.path("posts/\(c)/flag"), Node(.bool(true))),
        ]
        if spine {
            mutations.append(try Fixture.set("meta", #"{"v":{".sv":"timestamp"},"w":"x"}"#))
            effects.append((Fixture.path("meta"), try Fixture.node(#"{"v":1000,"w":"x"}"#)))
        }
        let outcome = cluster.transaction(mutations, now: 1_000) { cluster in
            for _ in 0..<Int.random(in: 0...2, using: &random) {
                counter += 1
                // Writes to the update's own paths are blocked by its locks and never logged.
                single(&cluster, others[Int.random(in: 0..<others.count, using: &random)], Node(.int(counter)))
            }
        }
        guard case .committed = outcome else { throw ScenarioError(description: "the update did not commit") }
        for _ in 0..<3 {
            counter += 1
            single(&cluster, others[Int.random(in: 0..<others.count, using: &random)], Node(.int(counter)))
        }
        return Scenario(wal: cluster.wal, effects: effects, writes: writes)
    }

    struct ScenarioError: Error, CustomStringConvertible {
        var description: String
    }
}
