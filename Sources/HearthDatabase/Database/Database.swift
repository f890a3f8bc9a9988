import Foundation
public import HearthCore
public import HearthNode
package import HearthStorage
public import HearthSystem
import HearthWire

/// One node's database: shards, coordinator, log and read view wired together.
///
/// Front ends (REST, SSE, the wire protocol) talk to it as `DatabaseAccess`: `root(_:)` for reads and listener
/// registration, `write(…)` for every mutation.
public final class Database: DatabaseAccess {
    public let view: DatabaseView
    public let coordinator: Coordinator
    /// Decides the front ends' writes in the write loop's turns, on the loop every shard runs on.
    package let writes: WriteDecider
    let log: LocalShardLog
    let snapshots: SnapshotStore
    let snapshotScheduler: SnapshotScheduler
    /// Seconds between checks whether anything was written since the last snapshot.
    let snapshotInterval: Double
    public let clock = ServerClock()

    private init(
        view: DatabaseView, coordinator: Coordinator, writes: WriteDecider, log: LocalShardLog,
        snapshots: SnapshotStore, snapshotScheduler: SnapshotScheduler, snapshotInterval: Double
    ) {
        self.view = view
        self.coordinator = coordinator
        self.writes = writes
        self.log = log
        self.snapshots = snapshots
        self.snapshotScheduler = snapshotScheduler
        self.snapshotInterval = snapshotInterval
    }

    /// Opens the data directory, recovers snapshot + log tail, starts the log, and finishes every transaction a
    /// crash left prepared (committing it when its anchor logged the decision, aborting it otherwise).
    public static func open(configuration: NodeConfiguration, log logger: Log) async throws -> Database {
        try await Self.open(configuration: configuration, fileSystem: PosixFileSystem(), log: logger)
    }

    /// Opens the database as `open(configuration:log:)` does, with its data directory (created with its missing
    /// parents), log and snapshots on `fileSystem`.
    package static func open(
        configuration: NodeConfiguration, fileSystem: any FileSystem, log logger: Log
    ) async throws -> Database {
        let directory = configuration.dataDirectory
        try fileSystem.createDirectories(directory)
        var phases = RecoveryPhases()
        let router = ShardRouter(shardCount: configuration.shardCount, shardDepth: configuration.shardDepth)
        let scheduler = SnapshotScheduler(everyRecords: configuration.snapshotEveryRecords)
        let view = DatabaseView(
            shardCount: router.shardCount, wantsCapture: { scheduler.wantsCapture(adding: $0) }
        ) { count, capture in
            scheduler.recordsApplied(count, capture: capture)
        }
        var walConfiguration = WALConfiguration()
        walConfiguration.fsync = configuration.fsync
        walConfiguration.segmentBytes = configuration.walSegmentBytes
        let shardLog = try LocalShardLog.open(
            directory: directory + "/wal", configuration: walConfiguration, fileSystem: fileSystem
        ) { runs, sequence in view.receive(runs, through: sequence) }
        let snapshots = try SnapshotStore(directory: directory + "/snapshots", retaining: 2, fileSystem: fileSystem)
        phases.end("wal_scan")

        let start = try await Self.loadSnapshot(
            from: snapshots, logDirectory: directory + "/wal", logStartsAt: shardLog.firstSequence, log: logger)
        if start != nil { phases.end("snapshot") }
        let decoded = start?.content
        var sequence = start?.lsn ?? 0
        var recovery = Recovery(router: router, snapshot: decoded)
        try shardLog.replay(after: sequence) { recordSequence, record in
            try recovery.replay(record, sequence: recordSequence)
            sequence = recordSequence
        }
        phases.end("wal_replay")
        let (state, machines) = recovery.finish(sequence: sequence)
        view.load(state)
        scheduler.recovered(recordsSinceSnapshot: recovery.replayed)
        let loop = try WriteLoop()
        let shards = ShardActor.actors(for: machines, log: shardLog, loop: loop, view: view)
        phases.end("shard_split")
        shardLog.start()
        let resolved: Int
        do {
            resolved = try await Self.finishPrepared(
                shards: shards, decisions: state.feed.decisions, log: shardLog, view: view)
        } catch {
            loop.stop()
            throw error
        }
        logger.info(
            "database.recovered",
            [
                "lsn": "\(sequence)", "replayed": "\(recovery.replayed)", "namespaces": "\(state.roots.count)",
                "resolved_transactions": "\(resolved)", "seconds": String(format: "%.3f", phases.total),
                "phases": phases.description,
            ])
        let coordinator = Coordinator(router: router, shards: shards, log: shardLog, view: view)
        return Database(
            view: view, coordinator: coordinator,
            writes: WriteDecider(loop: loop, coordinator: coordinator, shards: shards), log: shardLog,
            snapshots: snapshots, snapshotScheduler: scheduler,
            snapshotInterval: configuration.snapshotIntervalSeconds)
    }

    /// Nothing can reach the shards any more: the loop's thread ends.
    deinit {
        self.writes.loop.stop()
    }

    /// How much of a snapshot file recovery reads at a time.
    static let snapshotChunkSize = 64 << 20

    /// Finishes the parts a crash left prepared: each logs its anchor's decision, or abort when the anchor's log
    /// holds none (the decision never became durable, so nobody was told the transaction committed). Waits until
    /// every finish is committed.
    /// - Returns: how many prepared parts were finished.
    static func finishPrepared(
        shards: [ShardActor], decisions: [[TransactionID: Bool]], log: any ShardLog, view: DatabaseView
    ) async throws -> Int {
        var positions: [ShardLogPosition] = []
        for shard in shards {
            for (transaction, intent) in await shard.intents.sorted(by: { $0.key < $1.key }) {
                let commit = decisions[intent.plan.anchor][transaction] ?? false
                if let (position, _) = try await shard.finish(transaction, commit: commit) {
                    positions.append(position)
                }
            }
        }
        try await log.waitUntilCommitted(positions)
        for position in positions {
            try await view.waitUntilApplied(shard: position.shard, through: position.index)
        }
        return positions.count
    }

    /// Writes a snapshot when enough records have accumulated (`writeSnapshot`). Runs until cancelled; a final
    /// snapshot is not needed on shutdown because the log is complete.
    func runSnapshots(log logger: Log) async {
        for await capture in self.snapshotScheduler.requests {
            logger.info("snapshot.started", ["lsn": "\(capture.sequence)"])
            do {
                let started = ContinuousClock.now
                try self.writeSnapshot(capture)
                self.snapshotScheduler.finished(next: self.view.capture())
                logger.info(
                    "snapshot.written",
                    [
                        "lsn": "\(capture.sequence)",
                        "seconds": String(format: "%.3f", Self.seconds(ContinuousClock.now - started)),
                    ])
            } catch {
                self.snapshotScheduler.finished(next: nil)
                logger.error("snapshot.failed", ["lsn": "\(capture.sequence)", "error": "\(error)"])
            }
        }
    }

    /// Writes `capture` as a snapshot, then drops the log segments the older snapshot kept covers: the log keeps
    /// every record after it, so recovery can fall back to it when the newest snapshot is damaged.
    func writeSnapshot(_ capture: ViewSnapshot) throws {
        let oldestKept = try self.snapshots.write(lsn: capture.sequence) { writer in
            try SnapshotContent.encode(capture, depth: self.coordinator.router.shardDepth, into: &writer)
        }
        self.log.truncate(through: oldestKept)
        self.view.pruneDecisions()
    }

    /// Snapshots the current view if anything was written since the last snapshot (called periodically).
    func snapshotIfChanged() {
        guard self.snapshotScheduler.wantsTimedCapture else { return }
        self.snapshotScheduler.requestIfChanged(self.view.capture())
    }

    /// Stops the write loop, then flushes and closes the log; every acknowledged write is on disk afterwards.
    ///
    /// Every write gets a definite answer: one the loop took before the stop is decided, made durable by the log's
    /// close and answered as usual; one handed over after it is refused at once with `NodeStoppingError`; one whose
    /// answer still waits when the view closes — a two-phase write whose next step reaches the loop only after the
    /// stop, among them — fails with `DatabaseClosedError` (never an acknowledgement). The
    /// loop's thread has ended when this returns. Closing again does nothing more.
    public func close() async {
        self.snapshotScheduler.stop()
        self.writes.loop.stop()
        await self.writes.loop.stopped()
        await self.log.close()
        self.view.close()
    }

    package var walStatistics: WALStatistics { self.log.statistics }

    /// Whether the write-ahead log has failed, so the node can no longer acknowledge writes.
    public var hasFailed: Bool { self.log.hasFailed }

    /// A single node serves every shard once recovery has finished (before its port opens), until its log fails.
    public var notReadyReason: String? {
        self.hasFailed ? "The write-ahead log failed; this node is not serving." : nil
    }

    /// Nothing to wait for: a single node shows every write in its view before acknowledging it.
    public func readBarrier(namespace: String, path: Path) async throws {}

    /// Returns when the write-ahead log has failed (the node must stop), or when the calling task is cancelled.
    func waitForStorageFailure() async -> StorageError? {
        for await error in self.log.failure { return error }
        return nil
    }

    /// `duration` in seconds, for the request latency histograms: its attoseconds over a second's, as doubles
    /// (reading its components divided a 128-bit integer by 10¹⁸, twice, for every answered request).
    package static func seconds(_ duration: Duration) -> Double {
        duration / .seconds(1)
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
