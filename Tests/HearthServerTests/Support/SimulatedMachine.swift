import HearthCluster
import HearthCore
import HearthStorage
import HearthSystem
import HearthTestKit
import HearthWire
import Synchronization

@testable import HearthDatabase
@testable import HearthReplication
@testable import HearthServer

/// One machine of a `ClusterSimulation`: a disk that outlives crashes, a clock that can jump, and the node (a
/// `ReplicatedDatabase`) of its current incarnation.
///
/// Every field is touched only on the simulation's one thread; the slots let the incarnation's own tasks (which
/// run on the simulation's executor) publish the database and its log as they open them.
final class SimulatedMachine: @unchecked Sendable {
    let id: NodeID
    var disk = SimulatedFileSystem()
    /// The incarnation's clock, and how far ahead of the simulation's time it runs (clock jumps add to it).
    var clock = ManualNodeClock()
    var skew: Duration = .zero
    /// Counts starts; a crash makes every task of an earlier incarnation a ghost whose effects are dropped.
    private let incarnationCounter = Atomic(0)
    let database = Slot<ReplicatedDatabase>()
    let wal = Slot<WriteAheadLog>()
    var task: Task<Void, Never>?
    var isUp = false
    /// When a crashed machine comes back.
    var restartAt: Duration?
    /// The machine loses power during its disk's next write.
    var diesWhileWriting = false
    /// Why the machine refused to start (its disk was damaged), if it did.
    let refusal = Slot<String>()
    /// Client requests in flight on the current incarnation: a crash ends them as a dropped connection would.
    private let requests = Mutex<[UInt64: @Sendable (any Error) -> Void]>([:])
    private let nextRequest = Atomic<UInt64>(0)

    init(_ id: NodeID) {
        self.id = id
    }

    var incarnation: Int { self.incarnationCounter.load(ordering: .relaxed) }

    /// Starts the next incarnation's counter.
    func nextIncarnation() -> Int {
        self.incarnationCounter.add(1, ordering: .relaxed).newValue
    }

    /// Whether `incarnation` is the machine's current, running one.
    func isCurrent(_ incarnation: Int) -> Bool {
        self.isUp && self.incarnation == incarnation
    }

    /// Runs `work` as a request to this machine: its answer, or `LostAnswer` once the machine crashes first (the
    /// write itself may still be carried out, or stay stuck in the dead incarnation).
    func request<Answer: Sendable>(
        executor: any TaskExecutor, _ work: @escaping @Sendable () async throws -> Answer
    ) async throws -> Answer {
        let id = self.nextRequest.add(1, ordering: .relaxed).newValue
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Answer, any Error>) in
            self.requests.withLock { $0[id] = { error in continuation.resume(throwing: error) } }
            Task(executorPreference: executor) {
                let result: Result<Answer, any Error>
                do {
                    result = .success(try await work())
                } catch {
                    result = .failure(error)
                }
                if self.requests.withLock({ $0.removeValue(forKey: id) }) != nil { continuation.resume(with: result) }
            }
        }
    }

    /// Requests waiting for an answer.
    var requestsInFlight: Int { self.requests.withLock { $0.count } }

    /// Ends every request in flight with `LostAnswer` (the machine crashed).
    func dropRequests() {
        let dropped = self.requests.withLock { requests in
            defer { requests.removeAll() }
            return Array(requests.values)
        }
        for drop in dropped { drop(SimulatedMachineClient.LostAnswer()) }
    }

    /// Whether the write-ahead log holds records not yet written.
    var hasPendingWrites: Bool {
        guard self.isUp, let wal = self.wal.current else { return false }
        return wal.lastLSN > wal.durableLSN
    }
}

/// A client's way into one incarnation of a simulated machine: a write's answer counts only if the incarnation
/// that took it is still running when it comes (a crashed process sends nothing back).
struct SimulatedMachineClient: WorkloadTarget {
    let machine: SimulatedMachine
    let database: ReplicatedDatabase
    let incarnation: Int
    let executor: ManualTaskExecutor

    /// The answer was lost with the machine that would have sent it.
    struct LostAnswer: Error {}

    func perform(_ mutations: [Mutation], condition: WriteCondition?, now: Int64) async throws -> WriteOutcome {
        let coordinator = self.database.coordinator
        let outcome = try await self.machine.request(executor: self.executor) {
            try await coordinator.write(
                namespace: "default", mutations: mutations, conditions: condition.map { [$0] } ?? [], now: now)
        }
        guard self.machine.isCurrent(self.incarnation) else { throw LostAnswer() }
        return outcome
    }

    func visible(_ path: Path) -> Node {
        self.database.view.root("default").node(at: path)
    }

    func read(_ path: Path) async throws -> Node {
        let database = self.database
        let node = try await self.machine.request(executor: self.executor) {
            try await database.readBarrier(namespace: "default", path: path)
            return database.view.root("default").node(at: path)
        }
        guard self.machine.isCurrent(self.incarnation) else { throw LostAnswer() }
        return node
    }
}
