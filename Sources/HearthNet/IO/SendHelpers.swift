import HearthSystem
import Synchronization

/// Threads that send beside the reactor's when one batch flushes many connections at once — one event to thousands
/// of listeners — so the batch's `send`s, each of which runs the TCP path on the calling core, use more than one core
/// (see `Reactor+ParallelFlush.swift`).
///
/// The reactor wakes the helpers and starts sending at once; each thread, the reactor's included, takes the batch's
/// next connection until none is left, so a helper that is slow to be scheduled costs nothing but its help (a fixed
/// share would leave the reactor waiting for it). The reactor then waits only for connections a helper took and has
/// not finished. A helper touches only what `Reactor.sendQueued` touches (the socket, the thread-safe
/// `ConnectionWriter`, the atomic counters), and every connection is taken by exactly one thread, so no socket is
/// ever written by two threads at once.
final class SendHelpers: Sendable {
    /// One connection of a batch: its socket and its outbound queue.
    typealias Target = (descriptor: Int32, writer: ConnectionWriter)

    /// One batch, shared by the threads sending it.
    private final class Batch: Sendable {
        let targets: [Target]
        /// The index of the next connection to take.
        let next = Atomic<Int>(0)
        /// Connections sent so far.
        let done = Atomic<Int>(0)
        /// Signalled by the helper that finishes the batch's last connection.
        let finished = WakeSignal()

        init(_ targets: [Target]) {
            self.targets = targets
        }

        /// Sends connections until none is left to take; true when this thread finished the batch's last one.
        func work(gather: UnsafeMutableRawBufferPointer, counters: NetworkCounters) -> Bool {
            var finishedLast = false
            while true {
                let index = self.next.add(1, ordering: .relaxed).oldValue
                guard index < self.targets.count else { return finishedLast }
                let target = self.targets[index]
                Reactor.sendQueued(
                    descriptor: target.descriptor, writer: target.writer, gather: gather, counters: counters)
                finishedLast = self.done.add(1, ordering: .acquiringAndReleasing).newValue == self.targets.count
            }
        }
    }

    private enum Job {
        case idle
        case send(Batch)
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

    /// Sends every target's queued bytes from the calling thread and the helpers together, and returns once all are
    /// sent. Called by the reactor thread only, one batch at a time; `gather` is the caller's gather buffer.
    func send(_ targets: [Target], gather: UnsafeMutableRawBufferPointer) {
        guard !targets.isEmpty else { return }
        let batch = Batch(targets)
        for helper in self.helpers {
            helper.job.withLock { $0 = .send(batch) }
            helper.wake.signal()
        }
        if !batch.work(gather: gather, counters: self.counters) { batch.finished.wait() }
    }

    /// Stops every helper thread and waits for it to end; later calls return at once.
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
            case .send(let batch):
                if batch.work(gather: gather, counters: self.counters) { batch.finished.signal() }
            }
        }
    }
}
