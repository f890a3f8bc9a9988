import Dispatch
import Glibc
import HearthSystem

/// A serial queue with no thread of its own: a job runs at once on the thread that submits it when the queue is
/// idle, and a job submitted while another runs (by that job, or by another thread) is queued for the thread already
/// running, which runs it next. Jobs run one at a time, in the order they were submitted.
///
/// The connection's inputs arrive mostly on the client reactor's thread (frames) and the app's (commands); a
/// `DispatchQueue` moved each of them to a worker thread and back, two wake-ups per message, which cost the load
/// generator a fifth of its CPU in context switches. A thread that has run `batchLimit` jobs in a row while more
/// keep coming hands the rest to `spare`, a serial dispatch queue of the queue's own, so the reactor never serves one
/// busy connection for long. A serial queue, not a global one: those have a worker per core, all of which threads
/// waiting in `waitUntilIdle` (Swift concurrency's pool on Linux, say) could hold while the job they wait for sits
/// behind them; a serial queue's worker is started when needed.
final class InlineQueue: Sendable {
    typealias Job = @Sendable () -> Void

    /// Jobs one thread runs in a row before it hands the rest on.
    static let batchLimit = 64

    private struct State {
        var jobs: [Job] = []
        /// Whether some thread is running the queue's jobs (or `spare` was asked to).
        var isRunning = false
        /// That thread, once it runs.
        var runner: pthread_t?
        /// Threads in `waitUntilIdle`.
        var idleWaiters: [WakeSignal] = []
    }

    private let state = Lock(State())
    /// Where jobs go when a thread has run its share, and where the owner schedules work for later.
    let spare: DispatchQueue

    init(label: String) {
        self.spare = DispatchQueue(label: label)
    }

    /// Runs `job` now on this thread when the queue is idle, otherwise after the jobs before it.
    func async(_ job: @escaping Job) {
        let runsHere = self.state.withLock { state in
            state.jobs.append(job)
            guard !state.isRunning else { return false }
            state.isRunning = true
            state.runner = pthread_self()
            return true
        }
        if runsHere { self.run() }
    }

    /// Whether the calling thread is running one of this queue's jobs.
    var isCurrent: Bool {
        self.state.withLock { state in
            guard let runner = state.runner else { return false }
            return pthread_equal(runner, pthread_self()) != 0
        }
    }

    /// Returns once no job is running or queued (at once when called from a job); callers make sure no more come.
    func waitUntilIdle() {
        let signal: WakeSignal? = self.state.withLock { state in
            guard state.isRunning else { return nil }
            if let runner = state.runner, pthread_equal(runner, pthread_self()) != 0 { return nil }
            let signal = WakeSignal()
            state.idleWaiters.append(signal)
            return signal
        }
        signal?.wait()
    }

    /// Runs queued jobs until none is left, or hands them to `spare` after `batchLimit`.
    private func run() {
        var ran = 0
        while true {
            let (batch, waiters): ([Job]?, [WakeSignal]) = self.state.withLock { state in
                guard !state.jobs.isEmpty else {
                    state.isRunning = false
                    state.runner = nil
                    defer { state.idleWaiters = [] }
                    return (nil, state.idleWaiters)
                }
                guard ran < Self.batchLimit else {
                    state.runner = nil
                    return ([], [])
                }
                defer { state.jobs = [] }
                return (state.jobs, [])
            }
            guard let batch else {
                for waiter in waiters { waiter.signal() }
                return
            }
            guard !batch.isEmpty else {
                self.spare.async { self.resume() }
                return
            }
            for job in batch { job() }
            ran += batch.count
        }
    }

    /// `spare` taking over the jobs another thread handed on.
    private func resume() {
        self.state.withLock { $0.runner = pthread_self() }
        self.run()
    }
}
