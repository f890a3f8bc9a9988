import Glibc
import HearthSystem
import Synchronization

/// The single node's write loop: one dedicated thread, `hearth-loop`, that runs every shard command and decides the
/// write batches the front ends hand it, a turn at a time.
///
/// It is the serial executor every shard actor of a single node adopts (in place of a default actor on the pool):
/// the async paths (two-phase commit, recovery's finishes, tests) run on it as jobs, serialised with its turns as
/// they were with each other. A turn takes every job and batch queued since the last one, in the order they came,
/// and decides each batch's writes with no task, continuation or actor hop per write (`WriteDecider`); the writes
/// decided in a turn are then answered together (`WriteTurn`). Nothing here waits for I/O: the log only queues
/// records, and answers go out through the reactors' inboxes.
///
/// `stop()` (the database closes, or is gone) refuses every later batch at once with `NodeStoppingError`, decides
/// what was queued before it, and ends the thread once nothing is queued. A job queued after that (a task of the
/// async paths still running) is never stranded: it starts a thread again, which runs it and whatever follows it and
/// ends when the queue is empty.
final class WriteLoop: SerialExecutor, Sendable {
    /// Something queued for the loop. A batch's writes travel in the queue beside it, owned, so the turn moves each
    /// into its decision (a batch holding them would have each copied out).
    private enum Work {
        case job(UnownedJob)
        /// A batch and its writes, in its order.
        case batch(WriteBatch, [LoopWrite])
        /// A batch of one write (a realtime client's usual one), held in the queue's own slot: no array for it.
        case write(WriteBatch, LoopWrite)

        /// Whether it is a batch, which a stopped loop refuses (a job still runs: a task waits for it).
        var isBatch: Bool {
            if case .job = self { return false }
            return true
        }
    }

    private struct Inbox {
        var work: [Work] = []
        /// The loop sleeps and needs a signal for new work.
        var isSleeping = false
        /// `stop()` was called: batches are refused, and the thread ends once nothing is queued.
        var isStopping = false
        /// A thread runs the queue (false from the moment a stopped loop's thread ends until a late job starts one).
        var isRunning = true
        /// Tasks waiting for the thread of a stopped loop to end (`stopped()`).
        var stopWaiters: [CheckedContinuation<Void, Never>] = []
    }

    /// What queuing work asks of the thread.
    private enum Wake {
        /// The thread is awake: it takes the work in its next turn.
        case nothing
        /// The thread sleeps: signal it.
        case signal
        /// No thread runs (the loop stopped and its thread ended): start one.
        case start
    }

    private let inbox = Lock(Inbox())
    /// The most work a turn's emptied queue keeps room for when it goes back to be filled again: each turn swaps its
    /// empty queue for the full one, so queuing allocates nothing while turns stay this size (an array left empty
    /// was grown again, allocation by allocation, on the threads that queue); one grown past it is let go.
    private static let keptCapacity = 256
    /// What each turn that ran anything ends with, before its writes are answered: the log takes the subtrees of
    /// the turn's entries and hands them on (`LocalShardLog.endTurn`). Set once (`endTurns(with:)`) before any work
    /// is queued and kept for the loop's life, so a late job's thread after a stop ends its turns too (the closure
    /// holds the shards weakly: they hold the loop). Kept as a `LockedClosure`: a closure kept in the lock as it is
    /// would be wrapped in one more reabstraction thunk each turn.
    private let turnEnd = Lock<LockedClosure<@Sendable () -> Void>?>(nil)
    private let wake = WakeSignal()
    /// The loop thread's pthread id (0 until it runs): the one thread that may act for the shards outside a job.
    private let threadID = Atomic<UInt>(0)
    /// What the loop's threads are called.
    private let name: String

    /// Starts the thread, called `name`.
    /// - Throws: `SystemError` when the system refuses another thread.
    init(name: String = "hearth-loop") throws(SystemError) {
        self.name = name
        let thread = try DedicatedThread.start(name: name) { [self] in self.run() }
        thread.detach()
    }

    /// Runs `job` in a later turn (the shards' async commands).
    func enqueue(_ job: consuming ExecutorJob) {
        self.push(.job(UnownedJob(job)))
    }

    /// Decides `writes`, the writes of `batch` in its order, in a later turn, after everything queued before them;
    /// once the loop is stopped, answers each of them at once with `NodeStoppingError` instead (nothing of them is
    /// applied).
    func submit(_ batch: consuming WriteBatch, _ writes: consuming [LoopWrite]) {
        self.push(.batch(consume batch, consume writes))
    }

    /// `submit(_:_:)` for a batch of one `write`.
    func submit(_ batch: consuming WriteBatch, _ write: consuming LoopWrite) {
        self.push(.write(consume batch, consume write))
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Whether the caller runs on the loop thread: a turn acts for the shard actors there outside any job (their
    /// nonisolated methods that check this, `ShardActor.requireExecutor`).
    var isCurrent: Bool { self.threadID.load(ordering: .acquiring) == UInt(pthread_self()) }

    func isIsolatingCurrentContext() -> Bool? { self.isCurrent }

    func checkIsolated() {
        precondition(self.isCurrent, "shard state was touched off the hearth-loop thread")
    }

    /// Makes `body` end every turn (`turnEnd`).
    func endTurns(with body: @escaping @Sendable () -> Void) {
        self.turnEnd.withLock { $0 = LockedClosure(body) }
    }

    /// Refuses every later batch, and ends the thread once what is queued has run (the database closes, or is
    /// gone). Returns at once; `stopped()` waits for the thread to end.
    func stop() {
        self.inbox.withLock { $0.isStopping = true }
        self.wake.signal()
    }

    /// Returns once the thread of the stopped loop has run everything queued before the stop and ended (at once
    /// when no thread runs). Every batch the loop took is decided and its records are in the log by then.
    func stopped() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isRunning = self.inbox.withLock { inbox in
                if inbox.isRunning { inbox.stopWaiters.append(continuation) }
                return inbox.isRunning
            }
            if !isRunning { continuation.resume() }
        }
    }

    /// Queues `work` (moved in, not copied) and wakes or starts the thread as needed; once the loop is stopped, a
    /// batch is not queued but refused: each of its writes is answered with `NodeStoppingError`.
    private func push(_ work: consuming Work) {
        var queued = Optional(consume work)
        let wake = self.inbox.withLock { inbox -> Wake? in
            if inbox.isStopping, queued?.isBatch == true { return nil }
            if let work = queued.take() { inbox.work.append(work) }
            guard inbox.isRunning else {
                inbox.isRunning = true
                return .start
            }
            defer { inbox.isSleeping = false }
            return inbox.isSleeping ? .signal : .nothing
        }
        switch wake {
        case nil: queued.take().map(Self.refuse)
        case .signal?: self.wake.signal()
        case .start?: self.restart()
        case .nothing?: break
        }
    }

    /// Answers every write of the batch in `work` with `NodeStoppingError`.
    private static func refuse(_ work: consuming Work) {
        switch work {
        case .job: break
        case .batch(let batch, _), .write(let batch, _):
            for index in 0..<batch.count { batch.answer(index, .failure(NodeStoppingError())) }
        }
    }

    /// Runs what was queued after the stopped loop's thread ended on a new thread; when the system refuses one
    /// (it is out of threads or memory), on the calling thread, which is then the loop until the queue is empty:
    /// a job that never runs would leave its task waiting for ever.
    private func restart() {
        do {
            try DedicatedThread.start(name: self.name) { [self] in self.run() }.detach()
        } catch {
            self.run()
        }
    }

    /// The thread's body: turns until the loop is stopped and nothing is queued.
    private func run() {
        let thread = UInt(pthread_self())
        self.threadID.store(thread, ordering: .releasing)
        // Two queues take turns: the full one is taken, the empty one (with its room) left to be filled.
        var work: [Work] = []
        while true {
            let isEnding = self.inbox.withLock { inbox in
                swap(&work, &inbox.work)
                inbox.isSleeping = work.isEmpty && !inbox.isStopping
                if work.isEmpty && inbox.isStopping { inbox.isRunning = false }
                return !inbox.isRunning
            }
            if isEnding { return self.end(thread) }
            if work.isEmpty {
                self.wake.wait()
                continue
            }
            self.turn(&work)
            if work.capacity > Self.keptCapacity { work = [] }
        }
    }

    /// The thread `thread` ends: it no longer acts for the shards (unless a later one already took over), and the
    /// tasks waiting for the stop resume.
    private func end(_ thread: UInt) {
        _ = self.threadID.compareExchange(expected: thread, desired: 0, ordering: .acquiringAndReleasing)
        // A late job may have started another thread meanwhile: the waiters are then its to resume.
        let waiters = self.inbox.withLock { inbox -> [CheckedContinuation<Void, Never>] in
            guard !inbox.isRunning else { return [] }
            defer { inbox.stopWaiters = [] }
            return inbox.stopWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// One turn: every job and batch of `work` in the order queued (each moved out of it, which is left empty with
    /// its room), then the turn's end (`turnEnd`), then the turn's decided writes are handed on to be answered
    /// together.
    private func turn(_ work: inout [Work]) {
        var turn = WriteTurn()
        work.reverseByMoving()
        while let item = work.popLast() {
            switch consume item {
            case .job(let job): job.runSynchronously(on: self.asUnownedSerialExecutor())
            case .batch(let batch, let writes): batch.decider.decide(writes, of: batch, in: &turn)
            case .write(let batch, let write): batch.decider.decide(write, of: batch, index: 0, in: &turn)
            }
        }
        self.turnEnd.withLock { $0 }?.call()
        turn.finish()
    }
}
