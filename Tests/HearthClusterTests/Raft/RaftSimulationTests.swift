import Foundation
import HearthCluster
import HearthTestKit
import Testing

/// Seeded fault-injecting simulations of whole Raft groups (see `RaftSimulation`). Each run checks safety after
/// every event and liveness after healing. `HEARTH_RAFT_SEEDS=N HEARTH_RAFT_FIRST_SEED=S` runs other seeds; a
/// failure names its seed and the command that replays it.
@Suite struct RaftSimulationTests {
    static let environment = ProcessInfo.processInfo.environment
    static let seeds = Int(environment["HEARTH_RAFT_SEEDS"] ?? "") ?? 300
    static let firstSeed = UInt64(environment["HEARTH_RAFT_FIRST_SEED"] ?? "") ?? 1

    /// Runs on the simulation lane: a minute of simulation on the cooperative pool would starve the suite's
    /// real-time tests (two cores give the pool two threads).
    @Test(arguments: [3, 5]) func safeAndLiveUnderFaults(nodeCount: Int) async throws {
        try await SimulationLane.run {
            var totals = RaftSimulation.Statistics()
            for seed in Self.firstSeed..<(Self.firstSeed + UInt64(Self.seeds)) {
                var simulation = try RaftSimulation(seed: seed, nodeCount: nodeCount)
                do {
                    try simulation.run()
                } catch let failure as RaftSimulation.Failure {
                    Issue.record("\(failure)")
                    return
                }
                totals.add(simulation.statistics)
            }
            #expect(totals.acknowledged > 0)
            #expect(totals.snapshotsInstalled > 0 || Self.seeds < 20)
            #expect(totals.membershipChanges > 0 || Self.seeds < 20)
            print("Raft simulation, \(nodeCount) nodes, \(Self.seeds) seeds from \(Self.firstSeed): \(totals)")
        }
    }

    /// The same seed produces the same run.
    @Test func replaysExactly() async throws {
        try await SimulationLane.run { try Self.checkReplay() }
    }

    private static func checkReplay() throws {
        func run() throws -> (RaftSimulation.Statistics, UInt64, UInt64) {
            var simulation = try RaftSimulation(seed: 4242, nodeCount: 5)
            try simulation.run()
            return (simulation.statistics, simulation.now, simulation.highestCommitted)
        }
        let first = try run()
        let second = try run()
        #expect(first.0 == second.0 && first.1 == second.1 && first.2 == second.2)
    }
}

extension RaftSimulation.Statistics {
    mutating func add(_ other: Self) {
        self.leaders += other.leaders
        self.proposals += other.proposals
        self.acknowledged += other.acknowledged
        self.crashes += other.crashes
        self.snapshotsInstalled += other.snapshotsInstalled
        self.compactions += other.compactions
        self.membershipChanges += other.membershipChanges
        self.transfers += other.transfers
        self.reads += other.reads
        self.partitions += other.partitions
    }
}
