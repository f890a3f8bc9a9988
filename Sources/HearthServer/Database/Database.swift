import Foundation
public import HearthCore
import HearthStorage
public import HearthSystem
import Synchronization

/// One node's database: shards, coordinator, log and read view wired together.
///
/// Front ends (REST, SSE, the wire protocol) talk only to this type: `root(_:)` for reads and listener
/// registration, `write(…)` for every mutation.
public final class Database: Sendable {
    public let view: DatabaseView
    public let coordinator: Coordinator
    let log: CommitLog
    let snapshots: SnapshotStore
    let snapshotScheduler: SnapshotScheduler
    private let pushIDs = Mutex(PushIDGenerator())

    private init(
        view: DatabaseView, coordinator: Coordinator, log: CommitLog, snapshots: SnapshotStore,
        snapshotScheduler: SnapshotScheduler
    ) {
        self.view = view
        self.coordinator = coordinator
        self.log = log
        self.snapshots = snapshots
        self.snapshotScheduler = snapshotScheduler
    }

    /// Opens the data directory, recovers snapshot + log tail, and starts the log.
    public static func open(configuration: NodeConfiguration, log logger: Log) async throws -> Database {
        let directory = configuration.dataDirectory
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var phases = RecoveryPhases()
        let scheduler = SnapshotScheduler(everyRecords: configuration.snapshotEveryRecords)
        let view = DatabaseView { lsn, roots in scheduler.recordApplied(lsn: lsn, roots: roots) }
        var walConfiguration = WALConfiguration()
        walConfiguration.fsync = configuration.fsync
        let commitLog = try CommitLog.open(
            directory: directory + "/wal", configuration: walConfiguration, view: view, log: logger)
        let snapshots = try SnapshotStore(directory: directory + "/snapshots")
        phases.end("wal_scan")

        var roots: [String: Node] = [:]
        var lsn: UInt64 = 0
        if let latest = try snapshots.latest() {
            let bytes = try snapshots.read(latest)
            phases.end("snapshot_read")
            roots = try await SnapshotContent.decode(bytes, parallelism: ProcessInfo.processInfo.activeProcessorCount)
            phases.end("snapshot_parse")
            lsn = latest.lsn
        }
        var replayed = 0
        try commitLog.replay(after: lsn) { recordLSN, record in
            var root = roots[record.namespace] ?? .empty
            for mutation in record.mutations { root = mutation.apply(to: root) }
            roots[record.namespace] = root.isEmpty ? nil : root
            lsn = recordLSN
            replayed += 1
        }
        phases.end("wal_replay")
        view.load(roots: roots, lsn: lsn)
        scheduler.recovered(lsn: lsn, recordsSinceSnapshot: replayed)

        let router = ShardRouter(shardCount: configuration.shardCount, shardDepth: configuration.shardDepth)
        let shards = (0..<configuration.shardCount).map { ShardActor(id: $0) }
        for (namespace, root) in roots {
            for (index, tree) in router.split(root, namespace: namespace).enumerated() where !tree.isEmpty {
                await shards[index].load(namespace: namespace, tree: tree)
            }
        }
        phases.end("shard_split")
        commitLog.start()
        logger.info(
            "database.recovered",
            [
                "lsn": "\(lsn)", "replayed": "\(replayed)", "namespaces": "\(roots.count)",
                "seconds": String(format: "%.3f", phases.total), "phases": phases.description,
            ])
        let coordinator = Coordinator(router: router, shards: shards, log: commitLog, view: view)
        return Database(
            view: view, coordinator: coordinator, log: commitLog, snapshots: snapshots, snapshotScheduler: scheduler)
    }

    /// Milliseconds since the Unix epoch, the clock behind `ServerValue.timestamp` and push IDs.
    public func now() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }

    /// A new push ID from the server clock, strictly greater than every earlier one from this node.
    public func nextPushID() -> String {
        let now = self.now()
        return self.pushIDs.withLock { generator in
            var random = SystemRandomNumberGenerator()
            return generator.next(now: now, using: &random)
        }
    }

    /// The current value of a namespace root.
    public func root(_ namespace: String) -> Node { self.view.root(namespace) }

    /// Applies `mutations` atomically if `condition` holds; see `Coordinator.write`.
    public func write(namespace: String, mutations: [Mutation], condition: WriteCondition? = nil) async throws
        -> WriteOutcome
    {
        try await self.coordinator.write(
            namespace: namespace, mutations: mutations, condition: condition, now: self.now())
    }

    /// Orders a write without waiting for durability; see `Coordinator.submit`.
    public func submit(namespace: String, mutations: [Mutation], condition: WriteCondition? = nil) async throws
        -> PendingWrite
    {
        try await self.coordinator.submit(
            namespace: namespace, mutations: mutations, condition: condition, now: self.now())
    }

    /// Writes a snapshot when enough records have accumulated, then drops log segments it covers. Runs until
    /// cancelled; a final snapshot is not needed on shutdown because the log is complete.
    func runSnapshots(log logger: Log) async {
        for await (lsn, roots) in self.snapshotScheduler.requests {
            do {
                let started = ContinuousClock.now
                try self.snapshots.write(lsn: lsn) { writer in
                    try SnapshotContent.encode(roots, depth: self.coordinator.router.shardDepth, into: &writer)
                }
                self.log.truncate(through: lsn)
                self.snapshotScheduler.finished()
                logger.info(
                    "snapshot.written",
                    ["lsn": "\(lsn)", "seconds": String(format: "%.3f", Self.seconds(ContinuousClock.now - started))])
            } catch {
                self.snapshotScheduler.finished()
                logger.error("snapshot.failed", ["lsn": "\(lsn)", "error": "\(error)"])
            }
        }
    }

    /// Snapshots the current view if anything was written since the last snapshot (called periodically).
    func snapshotIfChanged() {
        let (lsn, roots) = self.view.snapshot()
        self.snapshotScheduler.requestIfChanged(lsn: lsn, roots: roots)
    }

    /// Flushes and closes the log; every acknowledged write is on disk afterwards.
    public func close() async {
        self.snapshotScheduler.stop()
        await self.log.close()
    }

    var walStatistics: WALStatistics { self.log.statistics }

    /// Returns when the write-ahead log has failed (the node must stop), or when the calling task is cancelled.
    func waitForStorageFailure() async -> StorageError? {
        for await error in self.log.failure { return error }
        return nil
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

/// How long each step of recovery took, for the `database.recovered` log line.
struct RecoveryPhases: CustomStringConvertible {
    private let started = ContinuousClock.now
    private var last = ContinuousClock.now
    private var steps: [(String, Double)] = []

    /// Closes the step that began at the previous call (or at creation).
    mutating func end(_ name: String) {
        let now = ContinuousClock.now
        self.steps.append((name, Database.seconds(now - self.last)))
        self.last = now
    }

    var total: Double { Database.seconds(self.last - self.started) }

    var description: String {
        self.steps.map { "\($0.0):\(String(format: "%.3f", $0.1))" }.joined(separator: ",")
    }
}
