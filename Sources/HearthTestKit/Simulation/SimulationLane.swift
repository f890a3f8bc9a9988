import HearthSystem

/// One thread for the suite's CPU-bound tests (simulations and property tests over many seeds), so however many of
/// them Swift Testing starts at once they take one core, and the cooperative pool — two threads on a 2-core
/// machine — stays free for the tests that need it on time (servers under test, timers, real-time clusters).
///
/// The lane's thread runs at the lowest scheduling priority (nice 19), so when the suite's real-time tests need a
/// core they get it first.
///
/// `run` executes its body on the lane's thread through a task executor preference, so it is still the test's own
/// task: `#expect` and `Issue.record` inside it are attributed to the test as usual. Bodies queue and run one at a
/// time, each to its end (they do not suspend).
public final class SimulationLane: TaskExecutor {
    /// The lane every test shares.
    public static let shared = SimulationLane()

    private let jobs = Lock<[UnownedJob]>([])
    private let wake = WakeSignal()

    private init() {
        do {
            try DedicatedThread.start(name: "simulation-lane") { [self] in self.loop() }.detach()
        } catch {
            preconditionFailure("the simulation lane's thread could not start: \(error)")
        }
    }

    /// Runs `body` on the lane's thread, after the bodies queued before it.
    public static func run<T: Sendable>(_ body: () throws -> T) async rethrows -> T {
        try await withTaskExecutorPreference(Self.shared) { try body() }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        self.jobs.withLock { $0.append(job) }
        self.wake.signal()
    }

    private func loop() -> Never {
        DedicatedThread.lowerCurrentThreadPriority()
        while true {
            let next = self.jobs.withLock { jobs -> UnownedJob? in jobs.isEmpty ? nil : jobs.removeFirst() }
            guard let job = next else {
                self.wake.wait()
                continue
            }
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}
