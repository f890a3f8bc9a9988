import HearthCluster
import HearthTestKit

/// A deterministic Raft cluster: 3 or 5 replicas of one group over HearthTestKit's seeded `SimulatedNetwork`,
/// with a simulated clock, crashes that keep only what the Ready asked to persist, partitions that change over time,
/// random proposals, compactions and snapshots, membership changes, leadership transfers and read-index requests.
/// Safety is checked after every event; after the faults heal, the cluster must commit a new entry on every member
/// within a bounded simulated time. Everything comes from `seed`, so a failure replays exactly.
struct RaftSimulation {
    typealias Network = SimulatedNetwork<NodeID, RaftMessage>

    /// A safety or liveness violation, naming the seed and how to replay it.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The application each replica runs: how far it applied and a hash chain of everything it applied.
    struct AppState: Equatable {
        var index: UInt64 = 0
        var hash: UInt64 = 0
    }

    struct Replica {
        var node: RaftNode?
        var disk: RaftPersistentState
        /// The application state captured with `disk.snapshot`.
        var snapshotApp = AppState()
        var app = AppState()
        var nextTick: UInt64
        /// Proposals this replica accepted as leader and not yet applied: index → (term, data).
        var proposals: [UInt64: (term: UInt64, data: [UInt8])] = [:]
        /// Read-index requests: context → the highest index committed anywhere when the read was asked.
        var reads: [[UInt8]: UInt64] = [:]
    }

    struct Committed: Equatable {
        var term: UInt64
        var payload: RaftEntry.Payload
        var hash: UInt64
    }

    /// What happened during a run, for reports and for checking that the faults really fired.
    struct Statistics: Equatable, Sendable {
        var leaders = 0
        var proposals = 0
        var acknowledged = 0
        var crashes = 0
        var snapshotsInstalled = 0
        var compactions = 0
        var membershipChanges = 0
        var transfers = 0
        var reads = 0
        var partitions = 0
    }

    let seed: UInt64
    let ids: [NodeID]
    let configuration: RaftConfiguration
    let tickInterval: UInt64 = 20
    let chaosDuration: UInt64
    let livenessBudget: UInt64 = 20_000
    static let group = RaftGroupID(1)

    var network: Network
    var random: SeededRandom
    var now: UInt64 = 0
    var replicas: [NodeID: Replica] = [:]
    var committed: [UInt64: Committed] = [:]
    var highestCommitted: UInt64 = 0
    var leaderOfTerm: [UInt64: NodeID] = [:]
    var acknowledged: [(index: UInt64, data: [UInt8])] = []
    var statistics = Statistics()
    var nextChaos: UInt64 = 0
    /// Nodes that crash in the middle of their next Ready: after persisting, before sending or applying.
    var tornCrashes: Set<NodeID> = []
    /// Nodes that crash in the middle of their next Ready with a leader's appends: after sending them, before
    /// persisting anything.
    var earlyCrashes: Set<NodeID> = []
    var counter = 0

    init(seed: UInt64, nodeCount: Int, chaosDuration: UInt64 = 4_000) throws {
        self.seed = seed
        self.ids = (1...nodeCount).map { NodeID("n\($0)") }
        self.configuration = try RaftConfiguration(
            electionTicks: 10,
            heartbeatTicks: 1,
            maxAppendBytes: 512,
            maxAppendEntries: 8,
            maxInflightAppends: 4
        )
        self.chaosDuration = chaosDuration
        self.random = SeededRandom(seed: seed)
        self.network = Network(seed: seed &* 31 &+ 7)
        self.network.faults = self.randomFaults()
        let initial = RaftPersistentState.bootstrap(voters: self.ids)
        for id in self.ids {
            self.replicas[id] = Replica(
                node: nil, disk: initial, nextTick: UInt64.random(in: 1...self.tickInterval, using: &self.random))
            try self.restart(id)
        }
    }

    var failurePrefix: String {
        "Raft simulation seed \(self.seed) (\(self.ids.count) nodes) at t=\(self.now) ms"
    }

    var replayHint: String {
        "replay: HEARTH_RAFT_SEEDS=1 HEARTH_RAFT_FIRST_SEED=\(self.seed) swift test --filter RaftSimulationTests"
    }

    func fail(_ message: String) -> Failure {
        Failure(description: "\(self.failurePrefix): \(message); \(self.replayHint)")
    }

    func replica(_ id: NodeID) -> Replica {
        guard let replica = self.replicas[id] else { preconditionFailure("no replica \(id)") }
        return replica
    }

    var liveIDs: [NodeID] { self.ids.filter { self.replicas[$0]?.node != nil } }

    /// The live leader with the highest term, if any.
    var currentLeader: NodeID? {
        self.liveIDs.filter { self.replica($0).node?.role == .leader }
            .max { (self.replica($0).node?.term ?? 0) < (self.replica($1).node?.term ?? 0) }
    }

    mutating func randomFaults() -> Network.Faults {
        let maxDelay = [5, 30, 100, 300][Int.random(in: 0...3, using: &self.random)]
        return Network.Faults(
            dropRate: Double.random(in: 0...0.3, using: &self.random),
            duplicateRate: Double.random(in: 0...0.5, using: &self.random),
            delay: 1...UInt64(maxDelay)
        )
    }

    /// Starts (or restarts) `id` from what it persisted.
    mutating func restart(_ id: NodeID) throws {
        var replica = self.replica(id)
        replica.node = try RaftNode(
            id: id,
            group: Self.group,
            configuration: self.configuration,
            restoring: replica.disk,
            seed: self.random.next()
        )
        replica.app = replica.snapshotApp
        replica.proposals = [:]
        replica.reads = [:]
        self.replicas[id] = replica
    }

    /// Crashes `id`: what was on its way to it is lost, and what it sent too unless `keepingWhatItSent` (it was
    /// already on the wire).
    mutating func crash(_ id: NodeID, keepingWhatItSent: Bool = false) {
        self.tornCrashes.remove(id)
        self.earlyCrashes.remove(id)
        self.replicas[id]?.node = nil
        if keepingWhatItSent {
            self.network.dropAll(to: id)
        } else {
            self.network.dropAll(involving: id)
        }
        self.statistics.crashes += 1
    }
}
