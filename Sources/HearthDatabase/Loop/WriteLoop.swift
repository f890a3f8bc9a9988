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
        var isStopping = false
    }

    private let inbox = Lock(Inbox())
    /// What each turn that ran anything ends with, before its writes are answered: the log takes the subtrees of
    /// the turn's entries and hands them on (`LocalShardLog.endTurn`). Set once (`endTurns(with:)`) before any work
    /// is queued; dropped when the thread ends, since it holds the shards, which hold the loop. Kept as a
    /// `LockedClosure`: a closure kept in the lock as it is would be wrapped in one more reabstraction thunk each turn.
    private let turnEnd = Lock<LockedClosure<@Sendable () -> Void>?>(nil)
    private let wake = WakeSignal()
    /// The loop thread's pthread id (0 until it runs): the one thread that may act for the shards outside a job.
    private let threadID = Atomic<UInt>(0)

    /// Starts the thread, called `name`.
    /// - Throws: `SystemError` when the system refuses another thread.
    init(name: String = "hearth-loop") throws(SystemError) {
        let thread = try DedicatedThread.start(name: name) { [self] in self.run() }
        thread.detach()
    }

    /// Runs `job` in a later turn (the shards' async commands).
    func enqueue(_ job: consuming ExecutorJob) {
        self.push(.job(UnownedJob(job)))
    }

    /// Decides `batch`'s writes in a later turn, after everything queued before it.
    func submit(_ batch: WriteBatch) {
        self.push(.batch(batch))
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Whether the caller runs on the loop thread: a turn acts for the shard actors there outside any job
    /// (`assumeIsolated`).
    var isCurrent: Bool { self.threadID.load(ordering: .acquiring) == UInt(pthread_self()) }

    func isIsolatingCurrentContext() -> Bool? { self.isCurrent }

    func checkIsolated() {
        precondition(self.isCurrent, "shard state was touched off the hearth-loop thread")
    }

    /// Makes `body` end every turn (`turnEnd`).
    func endTurns(with body: @escaping @Sendable () -> Void) {
        self.turnEnd.withLock { $0 = LockedClosure(body) }
    }

    /// Ends the thread once what is queued has run (the database is gone).
    func stop() {
        self.inbox.withLock { $0.isStopping = true }
        self.wake.signal()
    }

    private func push(_ work: Work) {
        let isSleeping = self.inbox.withLock { inbox in
            inbox.work.append(work)
            defer { inbox.isSleeping = false }
            return inbox.isSleeping
        }
        if isSleeping { self.wake.signal() }
    }

    private func run() {
        self.threadID.store(UInt(pthread_self()), ordering: .releasing)
        while true {
            let (work, isStopping) = self.inbox.withLock { inbox in
                defer { inbox.work = [] }
                inbox.isSleeping = inbox.work.isEmpty && !inbox.isStopping
                return (inbox.work, inbox.isStopping)
            }
            if work.isEmpty {
                if isStopping {
                    self.turnEnd.withLock { $0 = nil }
                    return
                }
                self.wake.wait()
                continue
            }
            self.turn(work)
        }
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
