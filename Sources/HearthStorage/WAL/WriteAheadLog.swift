import HearthSystem

/// The node's append-only write-ahead log: checksummed records, group commit, crash recovery.
///
/// Shard actors apply a change in memory, then synchronously `enqueue` its record (which fixes the LSN order to the
/// apply order) and `await waitUntilDurable(lsn)` before acknowledging. A dedicated writer thread takes everything
/// pending, writes it with as few system calls as possible, fsyncs once per batch according to `FsyncMode`, calls
/// `onDurable` with the batch's LSNs (in order) on its own thread, and only then resumes the batch's waiters. So an
/// acknowledged write is durable and already visible to whatever `onDurable` feeds.
///
/// Records live in segment files `wal-<first lsn>.log` (see `WALSegment`, `WALFrame`); opening the log runs
/// `WALRecovery`. An I/O error is fatal: every current and future waiter receives it.
public final class WriteAheadLog: Sendable {
    let directory: String
    let configuration: WALConfiguration
    let fileSystem: any FileSystem
    let onDurable: @Sendable (ClosedRange<UInt64>) -> Void
    let state: Lock<State>
    let wakeSignal = WakeSignal()
    /// Serialises `truncate(through:)` calls, the only code that removes segments.
    let truncation = Lock(())
    /// The last LSN found on disk when the log was opened: `replay` stops there.
    let recoveredLSN: UInt64
    /// With `WALWriterMode.manual`: the writer's I/O state once started, until the writer stops.
    let manualWriter = Lock<SegmentWriter?>(nil)

    /// Opens (creating) the log in `directory`, scans every segment, truncates a torn tail, and throws a
    /// StorageError that names the file and offset if a record in the middle is damaged (never silently drops data).
    public convenience init(
        directory: String,
        configuration: WALConfiguration,
        onDurable: @escaping @Sendable (ClosedRange<UInt64>) -> Void
    ) throws(StorageError) {
        try self.init(
            directory: directory,
            configuration: configuration,
            fileSystem: PosixFileSystem(),
            onDurable: onDurable
        )
    }

    /// Opens the log through `fileSystem`, so tests can inject faults.
    package init(
        directory: String,
        configuration: WALConfiguration,
        fileSystem: any FileSystem,
        onDurable: @escaping @Sendable (ClosedRange<UInt64>) -> Void
    ) throws(StorageError) {
        self.directory = directory
        self.configuration = configuration
        self.fileSystem = fileSystem
        self.onDurable = onDurable
        try fileSystem.createDirectory(directory)
        let outcome = try WALRecovery.recover(directory: directory, fileSystem: fileSystem)
        let active = outcome.segments.last ?? WALSegment(firstLSN: 1, directory: directory)
        let writer = try SegmentWriter(
            segment: active,
            size: outcome.lastSegmentSize,
            isNew: outcome.segments.isEmpty,
            directory: directory,
            configuration: configuration,
            fileSystem: fileSystem
        )
        self.recoveredLSN = outcome.lastLSN
        let segments = outcome.segments.isEmpty ? [active] : outcome.segments
        self.state = Lock(State(lastLSN: outcome.lastLSN, segments: segments, segmentWriter: writer))
    }

    deinit {
        let writer = self.state.withLock { $0.segmentWriter.take() }
        writer?.abandon()
        let manual = self.manualWriter.withLock { $0.take() }
        manual?.abandon()
    }

    /// The highest LSN handed out (by recovery or `enqueue`): 0 for an empty log; LSNs start at 1 and are dense.
    public var lastLSN: UInt64 {
        self.state.withLock { $0.nextLSN - 1 }
    }

    /// The highest LSN that is written, synced per the fsync mode, and passed to `onDurable`.
    public var durableLSN: UInt64 {
        self.state.withLock { $0.durableLSN }
    }

    /// What the writer has done since the log was opened.
    public var statistics: WALStatistics {
        self.state.withLock { $0.statistics }
    }

    /// Starts the writer thread. Calling it again has no effect.
    public func start() {
        let writer: SegmentWriter? = self.state.withLock { state in
            guard state.phase == .notStarted else { return nil }
            state.phase = .running
            return state.segmentWriter.take()
        }
        if let writer {
            self.spawnWriter(writer)
        }
    }

    /// Appends a record to the in-memory queue and returns its LSN; never blocks on I/O. O(payload) amortised.
    ///
    /// After a failure or `close()` the payload is dropped and `waitUntilDurable` for the returned LSN throws.
    public func enqueue(_ payload: [UInt8]) -> UInt64 {
        payload.withUnsafeBytes { self.enqueue(bytes: $0) }
    }

    /// Appends a copy of `payload` to the in-memory queue and returns its LSN, as `enqueue(_:)` does: for a caller
    /// that encodes its records into a buffer of its own and reuses it. O(payload) amortised.
    public func enqueue(bytes payload: UnsafeRawBufferPointer) -> UInt64 {
        let (lsn, wake) = self.state.withLock { state -> (UInt64, Bool) in
            guard state.failure == nil else {
                defer { state.nextLSN += 1 }
                return (state.nextLSN, false)
            }
            let lsn = state.append(payload, now: MonotonicClock.now())
            return (lsn, state.wakesWriter(self.configuration))
        }
        if wake {
            self.wakeSignal.signal()
        }
        return lsn
    }

    /// Queues every record of `batch` under one lock, as `enqueue(bytes:)` would one by one, and empties it
    /// (keeping its buffer's capacity up to `keptCapacity` bytes): for the log's only producer, which numbers its
    /// records itself (the batch must start at `lastLSN + 1`) and encodes them straight into the batch's frames.
    /// O(1) when nothing else is pending (the batch's buffer is swapped in whole), else O(batch bytes).
    ///
    /// After a failure or `close()` the records are dropped and `waitUntilDurable` for their LSNs throws.
    package func enqueue(_ batch: inout WALBatch, keepingCapacityUpTo keptCapacity: Int) {
        guard !batch.isEmpty else { return }
        let wake = self.state.withLock { state -> Bool in
            precondition(
                batch.firstLSN == state.nextLSN,
                "WriteAheadLog: a batch from record \(batch.firstLSN) queued after record \(state.nextLSN - 1)")
            guard state.failure == nil else {
                state.nextLSN += UInt64(batch.count)
                return false
            }
            state.append(batch: &batch)
            return state.wakesWriter(self.configuration)
        }
        batch.removeAll(keepingCapacityUpTo: keptCapacity)
        if wake {
            self.wakeSignal.signal()
        }
    }

    /// Drains the queue, fsyncs, and stops the writer thread; returns once it has stopped. Later waits throw
    /// `.closed` for records that were not written.
    public func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            enum Action { case resume, signal, spawn(SegmentWriter) }
            let action = self.state.withLock { state -> Action in
                switch state.phase {
                case .stopped:
                    return .resume
                case .running, .closing:
                    state.phase = .closing
                    state.closeWaiters.append(continuation)
                    return .signal
                case .notStarted:
                    state.phase = .closing
                    state.closeWaiters.append(continuation)
                    guard let writer = state.segmentWriter.take() else {
                        preconditionFailure("segment writer missing in state \(state.phase)")
                    }
                    return .spawn(writer)
                }
            }
            switch action {
            case .resume: continuation.resume()
            case .signal where self.configuration.writer == .manual: while self.writePending() {}
            case .signal: self.wakeSignal.signal()
            case .spawn(let writer):
                self.spawnWriter(writer)
                if self.configuration.writer == .manual {
                    while self.writePending() {}
                }
            }
        }
    }
}
