import HearthSystem
import Synchronization

/// Threads that send beside the reactor's when one batch flushes many connections at once — one event to thousands
/// of listeners — so the batch's `send`s, each of which runs the TCP path on the calling core, use more than one core
/// (see `Reactor+ParallelFlush.swift`).
///
/// The reactor hands each helper a share of the connections and sends its own share meanwhile, then waits until
/// every helper is done: a fork and join inside one reactor turn. A helper touches only what `Reactor.sendQueued`
/// touches (the socket, the thread-safe `ConnectionWriter`, the atomic counters), and every connection is in exactly
/// one share, so no socket is ever written by two threads at once.
final class SendHelpers: Sendable {
    /// One connection of a share: its socket and its outbound queue.
    typealias Target = (descriptor: Int32, writer: ConnectionWriter)

    private enum Job {
        case idle
        case send([Target])
        case stop
    }

    private final class Helper: Sendable {
        let wake = WakeSignal()
        let job = Mutex(Job.idle)
        /// Signalled as the helper's thread ends (the thread is detached; `stop` waits on this instead of a join).
        let exited = WakeSignal()
        let isRunning = Atomic<Bool>(false)
    }

    private let helpers: [Helper]
    private let counters: NetworkCounters
    /// Helpers still sending the current batch; the last one to finish wakes the reactor.
    private let remaining = Atomic<Int>(0)
    private let finished = WakeSignal()

    /// Starts `count` helper threads that count what they send in `counters`.
    ///
    /// - Throws: `IOError` when the system refuses a thread; those already started are stopped.
    init(count: Int, counters: NetworkCounters) throws(IOError) {
        self.helpers = (0..<count).map { _ in Helper() }
        self.counters = counters
        for (index, helper) in self.helpers.enumerated() {
            do {
                helper.isRunning.store(true, ordering: .releasing)
                try DedicatedThread.start(name: "hearth-send-\(index + 1)") { [self] in
                    self.run(helper)
                    helper.exited.signal()
                }
                .detach()
            } catch {
                helper.isRunning.store(false, ordering: .releasing)
                self.stop()
                throw IOError(.syscallFailed, error.message, errorNumber: error.errorNumber)
            }
        }
    }

    var count: Int { self.helpers.count }

    /// Sends `shares[i]` on helper `i` while `own` runs on the calling thread, and returns once all are done. Called
    /// by the reactor thread only, one batch at a time; `shares` has at most `count` elements.
    func send(_ shares: [[Target]], alongside own: () -> Void) {
        precondition(shares.count <= self.helpers.count, "\(shares.count) shares for \(self.helpers.count) helpers")
        self.remaining.store(shares.count, ordering: .releasing)
        for (helper, share) in zip(self.helpers, shares) {
            helper.job.withLock { $0 = .send(share) }
            helper.wake.signal()
        }
        own()
        if !shares.isEmpty { self.finished.wait() }
    }

    /// Stops every helper thread and waits for it to end.
    func stop() {
        for helper in self.helpers {
            helper.job.withLock { $0 = .stop }
            helper.wake.signal()
        }
        for helper in self.helpers where helper.isRunning.exchange(false, ordering: .acquiringAndReleasing) {
            helper.exited.wait()
        }
    }

    private func run(_ helper: Helper) {
        let gather = UnsafeMutableRawBufferPointer.allocate(byteCount: Reactor.readBufferSize, alignment: 16)
        defer { gather.deallocate() }
        while true {
            helper.wake.wait()
            let job = helper.job.withLock { job in
                defer { if case .send = job { job = .idle } }
                return job
            }
            switch job {
            case .idle:
                continue
            case .stop:
                return
            case .send(let share):
                for target in share {
                    Reactor.sendQueued(
                        descriptor: target.descriptor, writer: target.writer, gather: gather, counters: self.counters)
                }
                if self.remaining.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 {
                    self.finished.signal()
                }
            }
        }
    }
}
