import HearthCore
import HearthTestKit
import Testing

@testable import HearthDatabase
@testable import HearthServer

/// The failure bookkeeping of a multi-shard write (`TwoPhaseCommit+Holdings`): what a coordinator gives back when a
/// step fails, for each thing it may know of the decision.
@Suite struct TwoPhaseCommitHoldingsTests {
    private static let router = ShardRouter(shardCount: 4, shardDepth: 2)

    /// A deep update over shards 1 and 3 (anchor 3), started: its one directive prepares shard 1's part.
    private static func started() throws -> TwoPhaseCommit {
        let keys = try #require(Fixture.keys("p", under: Fixture.path("posts"), router: Self.router, shards: [3, 1]))
        var machine = TwoPhaseCommit(
            transaction: TransactionID(rawValue: 7), namespace: "default",
            mutations: [try Fixture.set("posts/\(keys[0])/n", "1"), try Fixture.set("posts/\(keys[1])/n", "2")],
            conditions: [], now: 1, router: Self.router)
        _ = machine.start()
        return machine
    }

    /// A write that failed before asking anything gives nothing back.
    @Test func nothingAskedReleasesNothing() throws {
        let machine = try Self.started()
        #expect(machine.release() == TwoPhaseCommit.Release(abort: [], unlock: []))
        #expect(machine.isForgettable)
    }

    /// A failure before the decision aborts every prepared part and unlocks every shard asked for a lock or holding
    /// a part, with each lock's term remembered for the calls that present it.
    @Test func aFailureBeforeTheDecisionAbortsThePreparedPartsAndUnlocksWhatWasAsked() throws {
        var machine = try Self.started()
        machine.onLockRequested(3)
        machine.onLocked(3, term: 9)
        machine.onLockRequested(2)
        machine.onPartPrepared(1)
        #expect(machine.readLockTerm(3) == 9)
        #expect(machine.readLockTerm(2) == nil, "a lock whose answer never came has no term")
        #expect(machine.release() == TwoPhaseCommit.Release(abort: [1], unlock: [1, 2, 3]))
    }

    /// A decide call whose answer was lost may have logged the commit: the prepared parts are not aborted (the
    /// resolvers finish them with the anchor's decision), only the locks are dropped.
    @Test func aDecisionWhoseAnswerWasLostNeverAbortsThePreparedParts() throws {
        var machine = try Self.started()
        machine.onLockRequested(3)
        machine.onPartPrepared(1)
        machine.onDecisionFailed(certainlyNotCarriedOut: false)
        #expect(machine.release() == TwoPhaseCommit.Release(abort: [], unlock: [3]))
    }

    /// A decide call the anchor certainly refused leaves the transaction undecided: its parts are aborted.
    @Test func aRefusedDecisionAbortsThePreparedParts() throws {
        var machine = try Self.started()
        machine.onPartPrepared(1)
        machine.onDecisionFailed(certainlyNotCarriedOut: true)
        #expect(machine.release() == TwoPhaseCommit.Release(abort: [1], unlock: [1]))
    }

    /// A commit already at the anchor counts as uncertain; an abort there lets this coordinator abort its parts.
    @Test func aDecisionAlreadyAtTheAnchorIsRespected() throws {
        var committed = try Self.started()
        committed.onPartPrepared(1)
        committed.onDecisionAlreadyThere(commit: true)
        #expect(committed.release() == TwoPhaseCommit.Release(abort: [], unlock: []))
        var aborted = try Self.started()
        aborted.onPartPrepared(1)
        aborted.onDecisionAlreadyThere(commit: false)
        #expect(aborted.release() == TwoPhaseCommit.Release(abort: [1], unlock: [1]))
    }

    /// Once the decision is logged nothing is given back, and a part a resolver finished first keeps the anchor's
    /// decision from being forgotten by this coordinator.
    @Test func aLoggedDecisionReleasesNothing() throws {
        var machine = try Self.started()
        machine.onPartPrepared(1)
        _ = machine.onPrepared()
        _ = machine.onDecided()
        #expect(machine.release() == nil)
        machine.onFinishedByResolver()
        #expect(!machine.isForgettable)
    }
}
