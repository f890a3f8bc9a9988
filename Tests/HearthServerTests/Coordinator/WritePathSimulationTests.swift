import Foundation
import HearthCore
import HearthTestKit
import Testing

@testable import HearthDatabase
@testable import HearthServer

/// Concurrent clients run random multi-shard updates, compare-and-sets, increments and spine writes through the real
/// coordinator, shards and read view, while a seeded schedule picks every job and commit, and crashes the node at
/// random points (also while it recovers). After every recovery, and whenever the node goes idle: every acknowledged
/// write is present, every transaction is all or nothing, increments are exact, and the view is the union of the
/// shards.
///
/// `HEARTH_SIM_SEEDS` sets how many seeds each ordering runs (100 by default), `HEARTH_SIM_FIRST_SEED` the first
/// one; a failure names its seed, which replays the same schedule.
@Suite struct WritePathSimulationTests {
    private static let router = ShardRouter(shardCount: 4, shardDepth: 2)

    private static var seeds: Range<UInt64> {
        let environment = ProcessInfo.processInfo.environment
        let count = environment["HEARTH_SIM_SEEDS"].flatMap { UInt64($0) } ?? 100
        let first = environment["HEARTH_SIM_FIRST_SEED"].flatMap { UInt64($0) } ?? 0
        return first..<(first + count)
    }

    /// Runs on a thread of its own: a schedule is seconds of synchronous work that must not hold one of the
    /// cooperative pool's few threads, which the loopback tests running alongside need.
    @Test(arguments: [SimulatedShardLog.Ordering.oneLog, .oneLogWithoutGroups, .perShard])
    func randomCrashesKeepAcknowledgedWritesWholeTransactionsAndExactCounters(
        ordering: SimulatedShardLog.Ordering
    ) async throws {
        let seeds = Self.seeds
        // On the simulation lane: the suite's CPU-bound tests share one low-priority thread.
        let found = try await SimulationLane.run { () throws -> [String] in
            for seed in seeds {
                let found = try Self.simulate(seed: seed, ordering: ordering)
                if !found.isEmpty { return ["seed \(seed), \(ordering): "] + found }
            }
            return []
        }
        #expect(found.isEmpty, "\(found.joined(separator: "; "))")
    }

    /// Three phases of clients; each may end in a crash (and the recovery in another).
    /// - Returns: what broke, if anything.
    private static func simulate(seed: UInt64, ordering: SimulatedShardLog.Ordering) throws -> [String] {
        let simulation = Simulation(router: Self.router, ordering: ordering, seed: seed)
        let workload = SimulatedWorkload()
        for phase in 0..<3 {
            for client in 0..<3 {
                let clientSeed = seed &* 1_000 &+ UInt64(phase * 10 + client)
                simulation.spawn { node in try await workload.client(node, seed: clientSeed, count: 4) }
            }
            let crashAt =
                Int.random(in: 0..<4, using: &simulation.random) == 0
                ? Int.max : Int.random(in: 1...250, using: &simulation.random)
            var idle = simulation.run(.random, steps: crashAt)
            while !idle {
                simulation.crash()
                try simulation.recover()
                let again =
                    Int.random(in: 0..<4, using: &simulation.random) == 0
                    ? Int.random(in: 1...30, using: &simulation.random) : Int.max
                idle = simulation.run(.random, steps: again)
            }
            let found = try Self.check(simulation, workload, replaying: phase == 2)
            if !found.isEmpty { return found.map { "phase \(phase): \($0)" } }
        }
        return []
    }

    /// The invariants, on a node with nothing left to run or commit; `replaying` also recovers a second node from
    /// the whole log, which must hold the same view and shards.
    private static func check(_ simulation: Simulation, _ workload: SimulatedWorkload, replaying: Bool) throws
        -> [String]
    {
        var found: [String] = []
        let root = simulation.visible(.root)
        let machines = simulation.machines
        let joined = Node.union(machines.map { $0.node(namespace: "default", at: .root) })
        if joined != root {
            found.append("the shards join into \(Fixture.json(joined)), the view shows \(Fixture.json(root))")
        }
        if !machines.allSatisfy({ $0.intents.isEmpty && $0.readLocks.isEmpty }) {
            found.append("a transaction is still prepared or locked on an idle node")
        }
        if simulation.node.view.capture() == nil { found.append("the view still waits for part of a transaction") }
        found += workload.violations(in: root)
        guard replaying else { return found }
        let replayed = try Simulation(router: simulation.router, snapshot: nil, records: simulation.records, after: 0)
        if replayed.visible(.root) != root { found.append("replaying the log gives another view") }
        if replayed.machines.map(\.trees) != machines.map(\.trees) {
            found.append("replaying the log gives other shards")
        }
        return found
    }
}
