import HearthCore
import HearthTestKit
import HearthWire
import Synchronization
import Testing

@testable import HearthDatabase
@testable import HearthServer

/// A crash keeps a prefix of the node's write-ahead log. A multi-shard update runs through the real coordinator while
/// other writes land between its records; every prefix of the log is recovered as `Database.open` recovers
/// (`Recovery`, then finishing prepared transactions): the update must be all or nothing in the read view and in
/// every shard, and committed exactly when its decision (or the one record holding every part, when its parts
/// commit together) was logged.
@Suite struct CrashRecoveryModelTests {
    private static let router = ShardRouter(shardCount: 4, shardDepth: 2)

    /// A finished run: the log, what the update writes, and where each other write's record sits.
    struct Scenario {
        var records: [[UInt8]]
        var wal: [(record: Int, shard: Int, index: UInt64, entry: ShardEntry)]
        /// The update's paths and the node each holds right after it.
        var effects: [(path: Path, after: Node)]
        /// Writes outside the update, by the position of their record in the log.
        var writes: [(position: Int, path: Path, value: Node)]
        /// The position of the record holding the anchor's commit decision, or every part committed together.
        var decision: Int? {
            self.wal.first { entry in
                switch entry.entry {
                case .decide(_, commit: true, _), .commit: true
                default: false
                }
            }?.record
        }

        /// The position of the record that finished the update in the shard owning the deep `path` (nil for a
        /// spine path, which no other write touches).
        func finishPosition(of path: Path, router: ShardRouter) -> Int? {
            guard let shard = router.shard(namespace: "default", path: path) else { return nil }
            return self.wal.first { record in
                switch record.entry {
                case .decide, .finish, .commit: record.shard == shard
                case .write, .prepare, .forget: false
                }
            }?.record
        }
    }

    /// Two-phase commit on one log (what a node does when a part cannot commit at once): prepares, a decision and
    /// finishes in records of their own, other writes between them.
    @Test(arguments: [(1, false), (2, false), (3, true), (4, true), (5, false), (6, true)] as [(UInt64, Bool)])
    func everyPrefixOfTheLogRecoversTheUpdateAllOrNothing(seed: UInt64, spine: Bool) throws {
        let scenario = try Self.run(seed: seed, spine: spine, ordering: .oneLogWithoutGroups)
        let first = try #require(scenario.wal.first { if case .prepare = $0.entry { true } else { false } })
        #expect(
            scenario.wal.contains { entry in
                guard case .write = entry.entry else { return false }
                return entry.record > first.record
            },
            "seed \(seed): no other write landed between the update's records")
        try Self.checkEveryPrefix(scenario, seed: seed, spine: spine)
    }

    /// The parts committed at once: one record holds every part (a spine value with a server value reads first,
    /// so it still goes through two-phase commit), and a crash keeps all of them or none.
    @Test(arguments: [(1, false), (2, false), (3, true), (4, true)] as [(UInt64, Bool)])
    func partsCommittedTogetherRecoverAllOrNothing(seed: UInt64, spine: Bool) throws {
        let scenario = try Self.run(seed: seed, spine: spine, spineServerValue: false, ordering: .oneLog)
        let parts = scenario.wal.filter { if case .commit = $0.entry { true } else { false } }
        #expect(Set(parts.map(\.record)).count == 1, "seed \(seed): the parts are in \(parts.count) records")
        #expect(parts.count == (spine ? Self.router.shardCount : 3), "seed \(seed)")
        #expect(!scenario.wal.contains { if case .prepare = $0.entry { true } else { false } }, "seed \(seed)")
        try Self.checkEveryPrefix(scenario, seed: seed, spine: spine)
    }

    /// Recovers every prefix of the scenario's log, then again after every prefix of what that recovery logged.
    private static func checkEveryPrefix(_ scenario: Scenario, seed: UInt64, spine: Bool) throws {
        let decision = try #require(scenario.decision)
        for length in 0...scenario.records.count {
            let prefix = scenario.records[..<length]
            let recovered = try Simulation(router: Self.router, snapshot: nil, records: prefix, after: 0)
            let context = "seed \(seed) spine \(spine), crash after \(length) of \(scenario.records.count) records"
            try Self.check(
                recovered, scenario: scenario, length: length, committed: length > decision, context: context)
            // A second crash while recovery logs its finishes changes nothing.
            let finishes = recovered.recordsSinceRecovery
            let machines = recovered.machines.map(\.trees)
            for kept in 0..<finishes.count {
                let again = try Simulation(
                    router: Self.router, snapshot: nil, records: Array(prefix) + finishes[..<kept], after: 0)
                #expect(
                    again.visible(.root) == recovered.visible(.root), "\(context), then after \(kept) recovery records")
                #expect(again.machines.map(\.trees) == machines, "\(context)")
            }
        }
    }

    /// The recovered node against the scenario: the update all or nothing, every other write exactly as far as its
    /// record survived, nothing left prepared, and the shards joining into the view.
    private static func check(
        _ recovered: Simulation, scenario: Scenario, length: Int, committed: Bool, context: String
    ) throws {
        #expect(recovered.node.view.capture() != nil, "\(context): the view waits for a part")
        let machines = recovered.machines
        #expect(machines.allSatisfy { $0.intents.isEmpty && $0.readLocks.isEmpty }, "\(context)")
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
                let copy = machines[shard].node(namespace: "default", at: path)
                #expect(copy == expected, "\(context): \(path) in shard \(shard)")
            } else {
                // A spine value is cut over every shard: their parts join into it.
                let parts = machines.map { $0.node(namespace: "default", at: path) }
                #expect(Node.union(parts) == expected, "\(context): \(path) over the shards")
            }
        }
        let effectPaths = Set(scenario.effects.map(\.path))
        for path in Set(scenario.writes.map(\.path)) where !effectPaths.contains(path) {
            let expected = seeded.last { $0.path == path }?.value ?? .empty
            #expect(recovered.visible(path) == expected, "\(context): \(path)")
        }
        let joined = Node.union(machines.map { $0.node(namespace: "default", at: .root) })
        #expect(joined == recovered.visible(.root), "\(context): the shards do not join into the view")
    }

    /// Seeds two counters, runs a three-shard update (plus a spine value when `spine`) while another client's
    /// single-shard writes land between its records (jobs and commits in a seeded random order), then a few more
    /// writes.
    private static func run(
        seed: UInt64, spine: Bool, spineServerValue: Bool = true, ordering: SimulatedShardLog.Ordering
    ) throws -> Scenario {
        let posts = Fixture.path("posts")
        let keys = try #require(Fixture.keys("p", under: posts, router: Self.router, shards: [1, 3, 2, 0]))
        let (a, b, c, d) = (keys[0], keys[1], keys[2], keys[3])
        let simulation = Simulation(router: Self.router, ordering: ordering, seed: seed)
        let writes = Mutex<[(position: Int, path: Path, value: Node)]>([])
        @Sendable func single(_ node: SimulatedNode, _ path: Path, _ value: Node) async throws {
            let pending = try await node.coordinator.submit(
                namespace: "default", mutations: [.set(path, WriteValue(node: value))], conditions: [], now: 1_000)
            guard case .committed(let positions, _) = pending.state, let position = positions.first else { return }
            _ = try await pending.outcome()
            writes.withLock { $0.append((Int(position.sequence) - 1, path, value)) }
        }
        simulation.spawn { node in
            try await single(node, Fixture.path("posts/\(a)/starCount"), Node(.int(10)))
            try await single(node, Fixture.path("posts/\(b)/count"), Node(.int(5)))
        }
        simulation.run()
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
            let value = spineServerValue ? #"{".sv":"timestamp"}"# : "1000"
            mutations.append(try Fixture.set("meta", #"{"v":\#(value),"w":"x"}"#))
            effects.append((Fixture.path("meta"), try Fixture.node(#"{"v":1000,"w":"x"}"#)))
        }
        let update = simulation.spawn { [mutations] node in try await node.write(mutations, now: 1_000) }
        simulation.spawn { node in
            var random = SeededRandom(seed: seed)
            for counter in 101...106 {
                try await single(
                    node, others[Int.random(in: 0..<others.count, using: &random)], Node(.int(Int64(counter))))
            }
        }
        simulation.run(.random)
        guard case .committed? = update.value else { throw SimulationError(description: "the update did not commit") }
        simulation.spawn { node in
            for counter in 107...109 {
                try await single(node, others[counter % others.count], Node(.int(Int64(counter))))
            }
        }
        simulation.run()
        let records = simulation.records
        return Scenario(
            records: records, wal: try simulation.entries(records), effects: effects,
            writes: writes.withLock { $0 }.sorted { $0.position < $1.position })
    }
}
