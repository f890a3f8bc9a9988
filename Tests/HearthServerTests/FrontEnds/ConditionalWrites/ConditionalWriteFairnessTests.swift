import HearthCore
import HearthTestKit
import Testing

@testable import HearthServer

/// `ConditionalWriteScheduler` under seeded random schedules: contenders that each run firebase-admin's transaction
/// loop against a model database, with random network, client and database delays. Every transaction commits, and no
/// caller is answered `412` more times in one transaction than there are contenders — also when the callers share
/// one LIFO pool of connections, as threads using Python's `requests` do, so a retry often comes on a connection
/// another caller used last.
@Suite struct ConditionalWriteFairnessTests {
    @Test(arguments: [2, 8, 16], [false, true])
    func noCallerLosesMoreRoundsThanThereAreContenders(contenders: Int, sharedPool: Bool) {
        for seed: UInt64 in 1...10 {
            var simulation = ContentionSimulation(
                contenders: contenders, transactions: 20, sharedPool: sharedPool, seed: seed)
            simulation.run()
            let worst = simulation.losses.max() ?? 0
            #expect(simulation.losses.count == contenders * 20, "seed \(seed): every transaction commits")
            #expect(worst <= contenders, "seed \(seed): a transaction was answered 412 \(worst) times")
            let forgotten = simulation.schedulerIsEmptyOnceIdle()
            #expect(forgotten, "seed \(seed): the location is forgotten when idle")
        }
    }

    /// The same schedules without the scheduler: the first to arrive wins each round, and some caller loses more
    /// rounds than there are contenders (so the test above has something to catch).
    @Test func withoutTheSchedulerSomeCallerLosesMoreRoundsThanThereAreContenders() {
        var worst = 0
        for seed: UInt64 in 1...20 {
            var simulation = ContentionSimulation(
                contenders: 8, transactions: 20, sharedPool: true, seed: seed, fair: false)
            simulation.run()
            worst = max(worst, simulation.losses.max() ?? 0)
        }
        #expect(worst > 8)
    }
}
