import HearthCore
import HearthStorage
import HearthSystem
import Synchronization

/// Every shard's log on one node, multiplexed onto the node's single write-ahead log.
///
/// Entries of all shards share one record sequence and one group-commit fsync, as multi-Raft stores keep many
/// groups in one engine. An entry's decoded `ShardApplied` stays in memory until its record is durable (so the read
/// view never parses what a shard just built); then its run of entries (a record's, or a whole turn's) goes to
/// `onCommitted` in record order, on a thread of its own (`OrderedWorker`): the read view's update and the fan-out to
/// listeners run beside the next write and fsync rather than between them. Runs are handed on as they were kept,
/// never joined into one array on the way: joining copied every entry once on the log's thread and again on the
/// commit thread. Waiting for a commit is waiting for durability; a write is shown once the view
/// says so (`DatabaseView.waitUntilApplied`).
///
/// Under the write loop (`holdTurns`), the entries of the turn under way are held back until `endTurn` has taken
/// their subtrees, even when their records are durable sooner, and a turn's entries reach the view together, once
/// its last record is durable: the view never receives an entry whose subtrees are not yet taken, and shows an
/// entry a later one of its turn supersedes by that one's node.
final class LocalShardLog: ShardLog {
    private let wal: WriteAheadLog
    /// Hands committed batches to `onCommitted` off the log's writer thread.
    private let delivery: OrderedWorker<([ShardApplied], UInt64)>
    private let directory: String
    private let pending: PendingEntries
    private let failures: AsyncStream<StorageError>.Continuation
    private let failed = Atomic(false)
    /// The records being framed and the write loop's turn under way (`Appending`). Its lock also makes the shards'
    /// encoding one at a time, which costs nothing while they share one executor (`appendsTogether`).
    private let appending: Lock<Appending>
    /// The most capacity the reused frame buffer keeps between hand-overs (1 MiB), so that one large write does not
    /// pin its size for the life of the process.
    static let keptRecordCapacity = 1 << 20
    /// Yields once when the log fails: the node must stop, since nothing more can be made durable.
    let failure: AsyncStream<StorageError>

    private init(
        wal: WriteAheadLog, delivery: OrderedWorker<([ShardApplied], UInt64)>, directory: String,
        pending: PendingEntries
    ) {
        self.wal = wal
        self.delivery = delivery
        self.directory = directory
        self.pending = pending
        self.appending = Lock(Appending(nextSequence: wal.lastLSN + 1))
        (self.failure, self.failures) = AsyncStream.makeStream(bufferingPolicy: .bufferingOldest(1))
    }

    /// Opens the log on `fileSystem`; once `start()` has been called, committed entries go to `onCommitted` in
    /// record order, as runs (each a record's entries, or a write loop turn's), with the sequence number of the last
    /// record of the batch.
    static func open(
        directory: String, configuration: WALConfiguration, fileSystem: any FileSystem,
        onCommitted: @escaping @Sendable (_ runs: [[ShardApplied]], _ sequence: UInt64) -> Void
    ) throws -> LocalShardLog {
        let pending = PendingEntries()
        // Batches that queued while the thread was busy go on as one: their changes are published together.
        let delivery = try OrderedWorker<([ShardApplied], UInt64)>(name: "hearth-commits") { batches in
            guard let last = batches.last?.1 else { return }
            onCommitted(batches.map(\.0), last)
        }
        let wal: WriteAheadLog
        do {
            wal = try WriteAheadLog(directory: directory, configuration: configuration, fileSystem: fileSystem) {
                sequences in
                pending.durable(sequences, delivery: delivery)
            }
        } catch {
            delivery.stop()
            throw error
        }
        return LocalShardLog(wal: wal, delivery: delivery, directory: directory, pending: pending)
    }

    /// From now on, entries appended in a turn of the write loop are held until `endTurn`: their shards' machines
    /// leave their subtrees for the turn's end (`ShardStateMachine.defersSubtrees`), and their records go to the
    /// write-ahead log together then. Called before any is appended.
    func holdTurns() {
        self.appending.withLock { $0.holdsTurns = true }
    }

    /// Ends the write loop's turn: queues the records it appended on the write-ahead log, all under one lock, takes
    /// the subtrees of its entries (`ShardApplied.captureTurn`, from `tree`, each shard's tree of a namespace as the
    /// turn left it), then hands them on together once the turn's last record is durable (at once, when it is
    /// already). On the loop's thread, after the turn's last append.
    func endTurn(tree: (_ shard: Int, _ namespace: String) -> Node) {
        // Swapped out rather than copied, so the entries' array is this turn's alone and takes its subtrees in place.
        var entries: [ShardApplied] = []
        let sequence = self.appending.withLock { appending in
            self.wal.enqueue(&appending.batch, keepingCapacityUpTo: Self.keptRecordCapacity)
            return appending.takeTurn(into: &entries)
        }
        guard let sequence else { return }
        ShardApplied.captureTurn(&entries, tree: tree)
        self.pending.publish(consume entries, through: sequence, delivery: self.delivery)
    }

    /// Ends a turn whose shards are gone (the database was let go without a close): its records are written as every
    /// turn's are, so a waiter on them is answered by the WAL, but its entries are not handed on, since no shard is
    /// left to take their subtrees from.
    func endTurnOfGoneShards() {
        self.appending.withLock { appending in
            self.wal.enqueue(&appending.batch, keepingCapacityUpTo: Self.keptRecordCapacity)
        }
    }

    /// The oldest record the log still holds (1 when none was ever truncated away): recovery can start from a
    /// snapshot at sequence `firstSequence - 1` or later.
    var firstSequence: UInt64 { self.wal.firstLSN }

    /// The newest record found on disk when the log was opened.
    var lastRecoveredSequence: UInt64 { self.wal.lastLSN }

    /// Replays every record after `sequence` into `body` (recovery, before `start`).
    /// - Throws: `StorageError` naming the file and offset of a damaged record, or `CommitRecordError` naming the
    ///   record that cannot be decoded; nothing is ever skipped.
    func replay(after sequence: UInt64, _ body: (UInt64, ShardLogRecord) throws -> Void) throws {
        try self.wal.replay(after: sequence) { record in
            let decoded: ShardLogRecord
            do {
                decoded = try ShardLogRecord(decoding: record.payload)
            } catch let error as CommitRecordError {
                let place = record.location.map { "\($0.segment) at byte \($0.offset)" } ?? self.directory
                throw CommitRecordError(
                    "record \(record.lsn) of the write-ahead log (\(place)) cannot be read by this version "
                        + "(\(error.detail)); recovery stopped there rather than skip it, since this node's one log "
                        + "holds every shard. Start the Hearth release that wrote it, or restore the data directory "
                        + "from a backup")
            }
            try body(record.lsn, decoded)
        }
    }

    func start() { self.wal.start() }

    /// Whether the log has failed an fsync or write (the node can make nothing durable any more and must stop).
    var hasFailed: Bool { self.failed.load(ordering: .relaxed) }

    func append(_ entry: ShardEntry, applied: ShardApplied) -> ShardLogPosition {
        let (shard, index) = (applied.shard, applied.index)
        let sequence = self.enqueue(.one(applied)) { record in
            ShardLogRecord.encode(entry, shard: shard, index: index, into: &record)
        }
        return ShardLogPosition(shard: shard, index: index, sequence: sequence)
    }

    /// One write-ahead log for every shard: entries of several shards fit in one record.
    var appendsTogether: Bool { true }

    func appendTogether(_ entries: consuming [ShardEntry], applied: consuming [ShardApplied]) -> [ShardLogPosition] {
        precondition(
            entries.count == applied.count,
            "LocalShardLog.appendTogether got \(entries.count) entries for \(applied.count) applied ones")
        // Each entry's place, read before the applied entries are moved into the turn (or the pending entries).
        var positions = applied.indices.map {
            ShardLogPosition(shard: applied[$0].shard, index: applied[$0].index, sequence: 0)
        }
        // The record reads the entries from the arrays (zipping the arrays copied every applied entry, and its change,
        // once more); the entries are this log's, so each is moved out while it is written
        // (`ShardLogRecord.encode(together:at:into:)`), never copied.
        var entries = entries
        let sequence = self.enqueue(.several(consume applied)) { record in
            ShardLogRecord.encode(together: &entries, at: positions, into: &record)
        }
        for index in positions.indices { positions[index].sequence = sequence }
        return positions
    }

    /// Numbers a record and frames it with `encode` straight into the batch for the write-ahead log (no buffer of
    /// its own, no copy); returns its sequence number. In a turn of the write loop, the record and `applied` wait
    /// for the turn's end (one lock per record); otherwise `applied` is kept under the record's number until it is
    /// durable, and the record is queued at once, under the pending entries' lock, so that `durable` finds them.
    /// `applied` is moved along, never copied entry by entry.
    private func enqueue(_ applied: consuming Kept, encode: (inout [UInt8]) -> Void) -> UInt64 {
        var kept = applied
        return self.appending.withLock { appending in
            let sequence = appending.frame(now: MonotonicClock.now(), encoding: encode)
            // Swapped out of the captured variable, so the entries are moved on, not copied (captured as they are,
            // their array would be shared, and moving its entries out would copy it first).
            var taken = Kept.several([])
            swap(&taken, &kept)
            if appending.holdsTurns {
                appending.keep(consume taken, at: sequence)
                return sequence
            }
            self.pending.state.withLock { pending in
                pending.add(taken, at: sequence)
                self.wal.enqueue(&appending.batch, keepingCapacityUpTo: Self.keptRecordCapacity)
            }
            return sequence
        }
    }

    /// One log for every shard: the newest of the records is durable only once all the others are.
    func waitUntilCommitted(_ positions: [ShardLogPosition]) async throws {
        guard let newest = positions.map(\.sequence).max() else { return }
        do {
            try await self.wal.waitUntilDurable(newest)
        } catch {
            self.noteFailure(error)
            throw error
        }
    }

    /// One log for every shard: called once the newest record is durable (on the log's writer thread, or at once).
    func whenCommitted(_ positions: [ShardLogPosition], _ body: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        guard let newest = positions.lazy.map(\.sequence).max() else { return body(.success(())) }
        self.wal.whenDurable(newest) { [self] result in
            if case .failure(let error) = result { self.noteFailure(error) }
            body(result.mapError { $0 })
        }
    }

    /// A write or fsync failed: the node can make nothing durable any more, and must stop.
    private func noteFailure(_ error: StorageError) {
        guard error.code == .io else { return }
        self.failed.store(true, ordering: .relaxed)
        self.failures.yield(error)
    }

    /// One log for every shard: records become durable in the order they were appended.
    func waitUntilOrdered(_ position: ShardLogPosition) async throws {}

    /// The newest record appended so far (queued on the write-ahead log, or waiting for its turn's end).
    var lastSequence: UInt64 { self.appending.withLock { $0.nextSequence - 1 } }

    func truncate(through sequence: UInt64) { self.wal.truncate(through: sequence) }

    /// Closes the log, then returns once every committed batch has gone to `onCommitted`. Records of a turn that
    /// never ended (the shards were gone before its end) are written first, as they were appended.
    func close() async {
        self.appending.withLock { self.wal.enqueue(&$0.batch, keepingCapacityUpTo: 0) }
        await self.wal.close()
        await self.delivery.finish()
    }

    var statistics: WALStatistics { self.wal.statistics }
}

/// Applied entries waiting for their records to become durable (and, under the write loop, for their turn to end),
/// then handed on in record order.
final class PendingEntries: Sendable {
    struct State {
        /// By record sequence number (several for a record of entries appended together): records not yet durable.
        /// A turn of the write loop keeps all its entries under its last record, so that they reach the view
        /// together (`publish`); its earlier records have none.
        var entries: [UInt64: [ShardApplied]] = [:]
        /// Every record up to here is durable.
        var durableSequence: UInt64 = 0

        /// Keeps the entries of record `sequence`, appended outside the write loop's turns, until it is durable.
        mutating func add(_ applied: consuming LocalShardLog.Kept, at sequence: UInt64) {
            switch consume applied {
            case .one(let entry): self.entries[sequence] = [entry]
            case .several(let entries): self.entries[sequence] = entries
            }
        }

        /// Moves the entries kept under record `sequence`, if any, to the end of `runs`.
        mutating func take(_ sequence: UInt64, into runs: inout [([ShardApplied], UInt64)]) {
            guard let applied = self.entries.removeValue(forKey: sequence) else { return }
            runs.append((applied, sequence))
        }

    }

    let state = Lock(State())

    /// The write-ahead log made the records `sequences` durable: the entries kept under them go to `delivery`, under
    /// the lock, so that what this thread and the loop hand on stays in record order. A record with none is an
    /// earlier record of a turn (its entries go with the turn's last record) or one of the turn under way (which
    /// hands its entries on itself, `publish`); either way nothing after it is handed on before it.
    /// Each record's run of entries goes as it was kept (moved out of `entries`, never copied entry by entry), all of
    /// them in one hand-off. O(records + kept runs).
    func durable(_ sequences: ClosedRange<UInt64>, delivery: OrderedWorker<([ShardApplied], UInt64)>) {
        self.state.withLock { state in
            state.durableSequence = sequences.upperBound
            guard !state.entries.isEmpty else { return }
            var runs: [([ShardApplied], UInt64)] = []
            if state.entries.count < sequences.count {
                for sequence in state.entries.keys.filter(sequences.contains).sorted() {
                    state.take(sequence, into: &runs)
                }
            } else {
                for sequence in sequences { state.take(sequence, into: &runs) }
            }
            delivery.send(contentsOf: consume runs)
        }
    }

    /// A turn ended with `entries` (in record order, their subtrees taken), the last of them in record `last`: they
    /// go to `delivery` together, at once when that record is durable already, else when `durable` reaches it.
    /// Together, the entry that carries a subtree is shown with the earlier ones of the turn it supersedes
    /// (`ViewState.isSupersededInTurn`, or `ViewState.isSuperseded` for a batch the feed did not show whole); their writes are answered together anyway (`WriteTurn`).
    /// The entries are moved along, so the commit thread that shows them frees them, not this one.
    func publish(
        _ entries: consuming [ShardApplied], through last: UInt64, delivery: OrderedWorker<([ShardApplied], UInt64)>
    ) {
        var entries = entries
        self.state.withLock { state in
            let taken = entries
            entries = []
            if last <= state.durableSequence {
                delivery.send((taken, last))
            } else {
                state.entries[last] = taken
            }
        }
    }
}
