import HearthCore
import Testing

@testable import HearthDatabase
@testable import HearthServer

/// When snapshots are taken: a due snapshot waits for a cut without prepared transactions, but not forever.
@Suite struct SnapshotSchedulerTests {
    /// A capture after record `sequence`, holding one prepared part in shard 0 when `prepared` is set.
    private static func capture(_ sequence: UInt64, prepared: Bool) -> ViewSnapshot {
        let intent = ShardIntent(
            write: ShardWrite(namespace: "default", mutations: [], now: 0),
            plan: ShardTransactionPlan(anchor: 1, participants: [0, 1]))
        return ViewSnapshot(
            sequence: sequence, roots: [:], appliedIndex: [sequence, 0],
            intents: [prepared ? [TransactionID(rawValue: 7): intent] : [:], [:]], decisions: [[:], [:]],
            sessions: [WriteSessions(), WriteSessions()])
    }

    /// Stops the scheduler and returns the sequence numbers of the snapshots it asked for.
    private static func requested(_ scheduler: SnapshotScheduler) async -> [UInt64] {
        scheduler.stop()
        var sequences: [UInt64] = []
        for await capture in scheduler.requests { sequences.append(capture.sequence) }
        return sequences
    }

    @Test func aDueSnapshotWaitsForACutWithoutPreparedTransactions() async {
        let scheduler = SnapshotScheduler(everyRecords: 1)
        scheduler.recordsApplied(1, capture: Self.capture(1, prepared: true))
        scheduler.recordsApplied(1, capture: Self.capture(2, prepared: true))
        scheduler.recordsApplied(1, capture: Self.capture(3, prepared: false))
        #expect(await Self.requested(scheduler) == [3])
    }

    @Test func aDueSnapshotTakesPreparedTransactionsAfterWaitingLongEnough() async {
        let scheduler = SnapshotScheduler(everyRecords: 1)
        let deferrals = UInt64(SnapshotScheduler.maximumDeferrals)
        for sequence in 1...(deferrals + 1) {
            scheduler.recordsApplied(1, capture: Self.capture(sequence, prepared: true))
        }
        #expect(await Self.requested(scheduler) == [deferrals + 1])
    }

    @Test func theTimerTakesWhateverCutItFinds() async {
        let scheduler = SnapshotScheduler(everyRecords: 100)
        scheduler.recordsApplied(1, capture: Self.capture(1, prepared: true))
        scheduler.requestIfChanged(Self.capture(1, prepared: true))
        #expect(await Self.requested(scheduler) == [1])
    }
}
