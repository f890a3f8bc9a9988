import Foundation
import HearthCluster
import HearthTestKit
import Testing

/// Whole clusters of SWIM instances under seeded network faults, measured in probe rounds (protocol periods).
/// CI runs a fixed seed budget; `HEARTH_SWIM_SEEDS=N` runs N seeds per case for long runs. Each case runs on the
/// simulation lane, so the suite's CPU-bound tests take one core between them.
@Suite struct SWIMSimulationTests {
    static let seeds: [UInt64] = Array(
        1...UInt64(ProcessInfo.processInfo.environment["HEARTH_SWIM_SEEDS"].flatMap(Int.init) ?? 1))

    typealias Faults = SimulatedNetwork<NodeID, [UInt8]>.Faults

    static func names(_ count: Int) -> [NodeID] { (1...count).map { NodeID("n\($0)") } }

    /// Starts `count` nodes that all join through n1 alone and runs until everyone sees everyone alive.
    static func converged(_ count: Int, seed: UInt64, faults: Faults) throws -> (SWIMSimulation, UInt64) {
        var simulation = SWIMSimulation(seed: seed, faults: faults)
        let names = Self.names(count)
        try simulation.start(names[0], generation: 1, seeds: [])
        for name in names.dropFirst() {
            try simulation.start(name, generation: 1, seeds: [names[0]])
        }
        let took = try #require(simulation.run(for: 120_000) { $0.hasConverged }, "seed \(seed): no convergence")
        #expect(simulation.undecodable == 0)
        return (simulation, took)
    }

    static func rounds(_ milliseconds: UInt64, _ simulation: SWIMSimulation) -> String {
        String(format: "%.1f", Double(milliseconds) / Double(simulation.probeIntervalMilliseconds))
    }

    @Test(arguments: [5, 10, 30])
    func nodesJoiningThroughOneSeedBecomeKnownToAll(count: Int) async throws {
        try await SimulationLane.run {
            for seed in Self.seeds {
                let (simulation, took) = try Self.converged(count, seed: seed, faults: Faults(delay: 1...20))
                print(
                    "swim-sim join N=\(count) seed=\(seed): all alive everywhere after \(Self.rounds(took, simulation)) rounds"
                )
                #expect(took <= 30 * simulation.probeIntervalMilliseconds, "seed \(seed)")
            }
        }
    }

    @Test(arguments: [5, 10, 30])
    func crashedNodeIsDeclaredDeadEverywhereAndItsRestartIsAliveEverywhere(count: Int) async throws {
        try await SimulationLane.run {
            for seed in Self.seeds {
                var (simulation, _) = try Self.converged(count, seed: seed, faults: Faults(delay: 1...20))
                let victim = NodeID("n\(count)")
                simulation.crash(victim)
                let dead = try #require(
                    simulation.run(for: 60_000) { $0.everyoneSees(victim) { $0?.status == .dead } },
                    "seed \(seed): \(victim) not dead everywhere"
                )
                try simulation.start(victim, generation: 2, seeds: ["n1"])
                let rejoined = try #require(
                    simulation.run(for: 60_000) { sim in
                        sim.everyoneSees(victim) { $0?.generation == 2 && $0?.status == .alive } && sim.hasConverged
                    },
                    "seed \(seed): restarted \(victim) not alive everywhere"
                )
                print(
                    "swim-sim crash N=\(count) seed=\(seed): dead everywhere after \(Self.rounds(dead, simulation)) rounds, "
                        + "restart alive everywhere after \(Self.rounds(rejoined, simulation)) rounds"
                )
                let bound =
                    Self.milliseconds(simulation.settings.suspicionTimeoutMax) + 6
                    * simulation.probeIntervalMilliseconds
                #expect(dead <= bound, "seed \(seed)")
                #expect(rejoined <= 10 * simulation.probeIntervalMilliseconds, "seed \(seed)")
            }
        }
    }

    /// Under message loss live nodes get suspected but refute in time. Counts false verdicts — distinct runs
    /// (member, generation) of live members that some node declared dead — over `lossRunSeconds` per seed; each is
    /// followed by a rejoin under a new generation.
    @Test(arguments: [(10, 0.1), (10, 0.2), (10, 0.3), (30, 0.1), (30, 0.3)])
    func lossCausesNoFalseDeadWithinTheSuspicionWindow(count: Int, loss: Double) async throws {
        try await SimulationLane.run {
            var falseVerdicts: Set<String> = []
            var suspicions = 0
            var memberSeconds: UInt64 = 0
            for seed in Self.seeds {
                var (simulation, _) = try Self.converged(count, seed: seed, faults: Faults(delay: 1...30))
                simulation.network.faults.dropRate = loss
                let start = simulation.events.count
                _ = simulation.run(for: Self.lossRunSeconds * 1_000)
                for (_, _, event) in simulation.events[start...] {
                    switch event {
                    case .dead(let member): falseVerdicts.insert("\(seed)/\(member.id)/\(member.generation)")
                    case .suspect: suspicions += 1
                    default: break
                    }
                }
                memberSeconds += Self.lossRunSeconds * UInt64(count)
                #expect(simulation.undecodable == 0)
            }
            let perMemberHour = Double(falseVerdicts.count) / Double(memberSeconds) * 3_600
            print(
                "swim-sim loss=\(Int(loss * 100))% N=\(count) seeds=\(Self.seeds.count) \(Self.lossRunSeconds) s each: "
                    + "\(falseVerdicts.count) false dead verdicts (\(String(format: "%.2f", perMemberHour)) per member-hour), "
                    + "\(suspicions) suspect events"
            )
            if loss <= 0.2 {
                #expect(falseVerdicts.isEmpty)
            }
        }
    }

    static let lossRunSeconds: UInt64 = ProcessInfo.processInfo.environment["HEARTH_SWIM_SEEDS"] == nil ? 60 : 120

    @Test(arguments: [5, 10, 30])
    func partitionHealsAndMembersConverge(count: Int) async throws {
        try await SimulationLane.run {
            for seed in Self.seeds {
                var (simulation, _) = try Self.converged(count, seed: seed, faults: Faults(delay: 1...20))
                let names = Self.names(count)
                let minority = Array(names.prefix(count / 2))
                let majority = Array(names.dropFirst(count / 2))
                simulation.network.partition(minority, from: majority)
                let split = try #require(
                    simulation.run(for: 60_000) { sim in
                        minority.allSatisfy { a in
                            majority.allSatisfy { b in
                                sim.view(of: a, about: b)?.status == .dead && sim.view(of: b, about: a)?.status == .dead
                            }
                        }
                    },
                    "seed \(seed): the two sides never declared each other dead"
                )
                simulation.network.heal()
                let healed = try #require(
                    simulation.run(for: 120_000) { $0.hasConverged }, "seed \(seed): no convergence")
                print(
                    "swim-sim partition N=\(count) seed=\(seed): sides split after \(Self.rounds(split, simulation)) rounds, "
                        + "converged \(Self.rounds(healed, simulation)) rounds after healing"
                )
            }
        }
    }

    /// A failing seed must replay exactly: the same seed gives the same events at the same simulated times.
    @Test func sameSeedReplaysTheSameRun() async throws {
        try await SimulationLane.run {
            func run() throws -> [String] {
                var (simulation, _) = try Self.converged(10, seed: 99, faults: Faults(dropRate: 0.2, delay: 1...30))
                simulation.crash("n3")
                _ = simulation.run(for: 20_000)
                return simulation.events.map { "\($0.at) \($0.observer) \($0.event)" }
            }
            let first = try run()
            #expect(first.count > 20)
            #expect(first == (try run()))
        }
    }

    static func milliseconds(_ duration: Duration) -> UInt64 { SWIMSimulation.milliseconds(duration) }
}
