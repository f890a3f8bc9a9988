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
    /// Something queued for the loop.
    private enum Work {
        case job(UnownedJob)
        case batch(WriteBatch)
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
        _ = self.push(.job(UnownedJob(job)))
    }

    /// Decides `batch`'s writes in a later turn, after everything queued before it; once the loop is stopped,
    /// answers each of them at once with `NodeStoppingError` instead (nothing of it is applied).
    func submit(_ batch: WriteBatch) {
        if !self.push(.batch(batch)) {
            for index in batch.writes.indices { batch.answer(index, .failure(NodeStoppingError())) }
        }
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

    /// Queues `work` and wakes or starts the thread as needed.
    /// - Returns: false, and nothing is queued, for a batch once the loop is stopped.
    private func push(_ work: Work) -> Bool {
        let wake = self.inbox.withLock { inbox -> Wake? in
            if case .batch = work, inbox.isStopping { return nil }
            inbox.work.append(work)
            guard inbox.isRunning else {
                inbox.isRunning = true
                return .start
            }
            defer { inbox.isSleeping = false }
            return inbox.isSleeping ? .signal : .nothing
        }
        switch wake {
        case nil: return false
        case .signal?: self.wake.signal()
        case .start?: self.restart()
        case .nothing?: break
        }
        return true
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
        while true {
            let (work, isEnding) = self.inbox.withLock { inbox in
                defer { inbox.work = [] }
                inbox.isSleeping = inbox.work.isEmpty && !inbox.isStopping
                if inbox.work.isEmpty && inbox.isStopping { inbox.isRunning = false }
                return (inbox.work, !inbox.isRunning)
            }
            if isEnding { return self.end(thread) }
            if work.isEmpty {
                self.wake.wait()
                continue
            }
            self.turn(work)
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

    /// One turn: every job and batch in the order queued, then the turn's end (`turnEnd`), then the turn's decided
    /// writes are handed on to be answered together.
    private func turn(_ work: [Work]) {
        var turn = WriteTurn()
        for item in work {
            switch item {
            case .job(let job): job.runSynchronously(on: self.asUnownedSerialExecutor())
            case .batch(let batch): batch.decider.decide(batch, in: &turn)
            }
        }
        self.turnEnd.withLock { $0 }?.call()
        turn.finish()
    }
}
