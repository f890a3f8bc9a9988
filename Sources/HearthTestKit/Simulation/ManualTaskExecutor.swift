import HearthSystem

/// A task executor that runs nothing on its own: a test runs its jobs one at a time, on the test's thread, in the
/// order it chooses (oldest first, or picked by a seeded random generator).
///
/// Tasks started with `Task(executorPreference:)` run here, and so does every default actor they call (SE-0417),
/// so a whole concurrent write path runs on one thread, one job at a time. "Nothing is runnable" is then an exact,
/// observable state, which a simulation needs to decide when its simulated disk makes progress or its node crashes;
/// and with a seeded pick of the next job, a run is repeatable from its seed.
public final class ManualTaskExecutor: TaskExecutor {
    private let jobs = Lock<[UnownedJob]>([])

    public init() {}

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        self.jobs.withLock { $0.append(job) }
    }

    /// How many jobs are waiting to run.
    public var runnableCount: Int { self.jobs.withLock { $0.count } }

    /// Runs the oldest waiting job; false when there is none.
    @discardableResult
    public func runOldest() -> Bool {
        self.run { _ in 0 }
    }

    /// Runs a waiting job picked by `random`; false when there is none.
    @discardableResult
    public func runAny(using random: inout some RandomNumberGenerator) -> Bool {
        self.run { count in Int.random(in: 0..<count, using: &random) }
    }

    private func run(picking pick: (Int) -> Int) -> Bool {
        let job = self.jobs.withLock { jobs -> UnownedJob? in
            guard !jobs.isEmpty else { return nil }
            return jobs.remove(at: pick(jobs.count))
        }
        guard let job else { return false }
        job.runSynchronously(on: self.asUnownedTaskExecutor())
        return true
    }
}
