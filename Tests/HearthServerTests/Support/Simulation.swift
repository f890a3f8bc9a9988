import HearthCore
import HearthTestKit
import HearthWire
import Synchronization
import Testing

@testable import HearthDatabase
@testable import HearthServer

/// A node's real write path (`Coordinator`, `ShardActor`s, `DatabaseView` and its `CommitFeed`) run on one
/// `ManualTaskExecutor` over a `SimulatedShardLog`, so a test decides every step: which runnable job runs next,
/// when appended entries commit, and when the node crashes.
///
/// A crash loses every entry not yet committed; `recover()` rebuilds the node from the committed records exactly as
/// `Database.open` does (`Recovery`, then `Database.finishPrepared`). With `.random` a seeded generator picks every
/// step, so a failing schedule replays from its seed.
final class Simulation {
    /// How `run` picks its steps.
    enum Schedule {
        /// Jobs oldest first; whenever none is runnable, every appended entry commits, in append order.
        case inOrder
        /// A seeded choice at every step: a random runnable job, or committing the oldest one to three uncommitted
        /// entries (of one random shard, when every shard has its own log).
        case random
    }

    let router: ShardRouter
    let ordering: SimulatedShardLog.Ordering
    var random: SeededRandom
    private(set) var node: SimulatedNode
    private let executor: ManualTaskExecutor
    private let onApplied: @Sendable (ViewSnapshot?) -> Void
    /// Records committed by earlier incarnations (or recovered from), in commit order.
    private var earlier: [[UInt8]] = []
    /// The sequence number `earlier` starts after (a snapshot's, when recovered from one).
    private let base: UInt64

    /// A node with no data.
    /// - Parameter onApplied: called with what a snapshot would hold after every batch the view applies.
    init(
        router: ShardRouter, ordering: SimulatedShardLog.Ordering = .oneLog, seed: UInt64 = 1,
        onApplied: @escaping @Sendable (ViewSnapshot?) -> Void = { _ in }
    ) {
        self.router = router
        self.ordering = ordering
        self.random = SeededRandom(seed: seed)
        self.onApplied = onApplied
        self.base = 0
        self.executor = ManualTaskExecutor()
        let machines = (0..<router.shardCount).map { ShardStateMachine(shard: $0, spineDepth: router.shardDepth) }
        self.node = SimulatedNode(
            router: router, ordering: ordering, machines: machines, state: nil, sequence: 0, onApplied: onApplied)
    }

    /// A node recovered from `snapshot` plus `records` (the committed log after `sequence`), with every prepared
    /// transaction finished (run in order until nothing is left to do).
    init(
        router: ShardRouter, ordering: SimulatedShardLog.Ordering = .oneLog, seed: UInt64 = 1,
        snapshot: SnapshotContent.Decoded?, records: some Collection<[UInt8]>, after sequence: UInt64
    ) throws {
        self.router = router
        self.ordering = ordering
        self.random = SeededRandom(seed: seed)
        self.onApplied = { _ in }
        self.base = sequence
        self.earlier = Array(records)
        let executor = ManualTaskExecutor()
        self.executor = executor
        self.node = try Self.recovered(
            router: router, ordering: ordering, snapshot: snapshot, records: records, after: sequence,
            executor: executor, onApplied: { _ in })
        self.run()
    }

    /// Every committed record of every incarnation, in commit order (after the snapshot recovered from, if any).
    var records: [[UInt8]] { self.earlier + self.node.log.committedRecords }

    /// The records this incarnation committed (for a recovered node: first the finishes of prepared parts).
    var recordsSinceRecovery: [[UInt8]] { self.node.log.committedRecords }

    /// Starts `body` as a task on the simulation's executor; it runs only as `run` runs its jobs.
    @discardableResult
    func spawn<T: Sendable>(_ body: @escaping @Sendable (SimulatedNode) async throws -> T) -> SimulatedTask<T> {
        let task = SimulatedTask<T>()
        let node = self.node
        Task(executorPreference: self.executor) {
            let result: Result<T, any Error>
            do {
                result = .success(try await body(node))
            } catch {
                result = .failure(error)
            }
            task.result.withLock { $0 = result }
        }
        return task
    }

    /// Runs jobs and commits as `schedule` picks them, until nothing can progress or `steps` steps were taken.
    /// - Returns: true when nothing is left to run or commit.
    @discardableResult
    func run(_ schedule: Schedule = .inOrder, steps: Int = .max) -> Bool {
        var taken = 0
        while taken < steps {
            taken += 1
            let log = self.node.log
            switch schedule {
            case .inOrder:
                if self.executor.runOldest() { continue }
                if log.uncommittedShards.isEmpty { return true }
                log.commit(.max)
            case .random:
                let shards = log.uncommittedShards
                let jobs = self.executor.runnableCount
                if jobs == 0 && shards.isEmpty { return true }
                if !shards.isEmpty && (jobs == 0 || Int.random(in: 0..<3, using: &self.random) == 0) {
                    let count = Int.random(in: 1...3, using: &self.random)
                    switch self.ordering {
                    case .oneLog, .oneLogWithoutGroups: log.commit(count)
                    case .perShard: log.commit(count, of: shards[Int.random(in: 0..<shards.count, using: &self.random)])
                    }
                } else {
                    self.executor.runAny(using: &self.random)
                }
            }
        }
        return self.executor.runnableCount == 0 && self.node.log.uncommittedShards.isEmpty
    }

    /// The node stops: entries not yet committed are lost, and every task waiting on the log or the view fails.
    /// Tasks parked behind a prepared transaction never resume.
    func crash() {
        self.node.log.crash()
        self.node.view.close()
        while self.executor.runOldest() {}
    }

    /// Replaces the crashed node with one recovered from every committed record; prepared parts are finished as
    /// `run` goes on (the recovery may crash again).
    func recover() throws {
        self.earlier += self.node.log.committedRecords
        self.node = try Self.recovered(
            router: self.router, ordering: self.ordering, snapshot: nil, records: self.earlier, after: self.base,
            executor: self.executor, onApplied: self.onApplied)
    }

    private static func recovered(
        router: ShardRouter, ordering: SimulatedShardLog.Ordering, snapshot: SnapshotContent.Decoded?,
        records: some Collection<[UInt8]>, after sequence: UInt64, executor: ManualTaskExecutor,
        onApplied: @escaping @Sendable (ViewSnapshot?) -> Void
    ) throws -> SimulatedNode {
        var recovery = Recovery(router: router, snapshot: snapshot)
        var last = sequence
        for bytes in records {
            last += 1
            try recovery.replay(try ShardLogRecord(decoding: bytes), sequence: last)
        }
        let (state, machines) = recovery.finish(sequence: last)
        let node = SimulatedNode(
            router: router, ordering: ordering, machines: machines, state: state, sequence: last,
            onApplied: onApplied)
        let decisions = state.feed.decisions
        Task(executorPreference: executor) {
            _ = try await Database.finishPrepared(
                shards: node.shards, decisions: decisions, log: node.log, view: node.view)
        }
        return node
    }
}

/// The result of a task started by `Simulation.spawn`, once it finished.
final class SimulatedTask<T: Sendable>: Sendable {
    let result = Mutex<Result<T, any Error>?>(nil)

    /// The task's value, or nil while it runs or when it threw.
    var value: T? { self.result.withLock { try? $0?.get() } }
}
