import HearthCore
import Testing

@testable import HearthDatabase
@testable import HearthServer

/// The transaction's steps as the coordinator's shell performs them (`TwoPhaseCommit+Steps`): for each failure at
/// each point, what the value asks the shell to give back and how the write ends.
@Suite struct TwoPhaseCommitStepsTests {
    typealias Driver = TwoPhaseCommitDriver

    /// One scripted failure order: which step (by name) gets which answer; every other step succeeds.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var condition = false
        var together = false
        var answers: [String: TwoPhaseCommit.Event]
        /// The steps the value must give, the end included.
        var steps: [String]

        var testDescription: String { self.name }
    }

    static let cases: [Case] = [
        Case(
            name: "every call succeeds", answers: [:],
            steps: ["prepare 1", "order [1]", "decide 3", "order [3]", "finish 1", "end committed forget 3"]),
        Case(
            name: "a prepare refused", answers: ["prepare 1": .failed(Driver.refused, certainlyNotCarriedOut: true)],
            steps: ["prepare 1", "end failed ShardCallError"]),
        Case(
            name: "a prepare whose answer was lost is aborted",
            answers: ["prepare 1": .failed(Driver.lost, certainlyNotCarriedOut: false)],
            steps: ["prepare 1", "abort 1", "unlock 1", "end failed ShardCallError"]),
        Case(
            name: "a prepare not ordered aborts the part",
            answers: ["order [1]": .failed(ShardNotCommittedError(shard: 1), certainlyNotCarriedOut: false)],
            steps: ["prepare 1", "order [1]", "abort 1", "unlock 1", "end failed ShardNotCommittedError"]),
        Case(
            name: "a decision refused aborts the prepared part",
            answers: ["decide 3": .failed(Driver.refused, certainlyNotCarriedOut: true)],
            steps: ["prepare 1", "order [1]", "decide 3", "abort 1", "unlock 1", "end failed ShardCallError"]),
        Case(
            name: "a decision whose answer was lost aborts nothing",
            answers: ["decide 3": .failed(Driver.lost, certainlyNotCarriedOut: false)],
            steps: ["prepare 1", "order [1]", "decide 3", "end failed ShardCallError"]),
        Case(
            name: "a resolver's abort at the anchor aborts the part",
            answers: ["decide 3": .decided(.alreadyDecided(commit: false, at: nil))],
            steps: ["prepare 1", "order [1]", "decide 3", "abort 1", "unlock 1", "end failed TransactionAbortedError"]),
        Case(
            name: "a commit already at the anchor aborts nothing",
            answers: ["decide 3": .decided(.alreadyDecided(commit: true, at: nil))],
            steps: ["prepare 1", "order [1]", "decide 3", "end failed TransactionAbortedError"]),
        Case(
            name: "a decision not ordered releases nothing",
            answers: [
                "order [3]": .failed(CommitTimeoutError(shard: 3, waited: .seconds(10)), certainlyNotCarriedOut: false)
            ],
            steps: ["prepare 1", "order [1]", "decide 3", "order [3]", "end failed CommitTimeoutError"]),
        Case(
            name: "a finish that fails after the decision reports the write committed and unfinished",
            answers: ["finish 1": .failed(Driver.refused, certainlyNotCarriedOut: true)],
            steps: [
                "prepare 1", "order [1]", "decide 3", "order [3]", "finish 1", "end failed TransactionUnfinishedError",
            ]),
        Case(
            name: "a part a resolver finished first keeps the decision",
            answers: ["finish 1": .finished(nil)],
            steps: ["prepare 1", "order [1]", "decide 3", "order [3]", "finish 1", "end committed forget -"]),
        Case(
            name: "a duplicate prepare gives back and answers the first write",
            answers: ["prepare 1": .prepared(.duplicate(through: 4))],
            steps: ["prepare 1", "end duplicate"]),
        Case(
            name: "a duplicate at the anchor aborts the prepared part",
            answers: ["decide 3": .decided(.duplicate(through: 4))],
            steps: ["prepare 1", "order [1]", "decide 3", "abort 1", "unlock 1", "end duplicate"]),
        Case(
            name: "a part below a spine leaf runs the write again over every shard",
            answers: ["prepare 1": .prepared(.needsAllShards)],
            steps: ["prepare 1", "unlock 1", "unlock 3", "end rerun escalated"]),
        Case(
            name: "an anchor below a spine leaf aborts every part and runs again",
            answers: ["decide 3": .decided(.needsAllShards)],
            steps: ["prepare 1", "order [1]", "decide 3", "abort 1", "unlock 1", "unlock 3", "end rerun escalated"]),
        Case(
            name: "a compare-and-set reads under locks first", condition: true, answers: [:],
            steps: [
                "lock 1", "lock 3", "prepare 1", "order [1]", "decide 3", "order [3]", "finish 1",
                "end committed forget 3",
            ]),
        Case(
            name: "a lock whose answer was lost is unlocked", condition: true,
            answers: ["lock 3": .failed(Driver.lost, certainlyNotCarriedOut: false)],
            steps: ["lock 1", "lock 3", "unlock 1", "unlock 3", "end failed ShardCallError"]),
        Case(
            name: "a refusal every participant confirms is stale", condition: true,
            answers: ["lock 1": .locked(ShardReadLock(nodes: [Node(.int(1))], through: 3, term: 2))],
            steps: ["lock 1", "lock 3", "confirm 1", "confirm 3", "unlock 1", "unlock 3", "end stale"]),
        Case(
            name: "a refusal one participant cannot confirm runs again after a pause", condition: true,
            answers: [
                "lock 1": .locked(ShardReadLock(nodes: [Node(.int(1))], through: 3, term: 2)),
                "confirm 1": .failed(Driver.lost, certainlyNotCarriedOut: false),
            ],
            steps: ["lock 1", "lock 3", "confirm 1", "unlock 1", "unlock 3", "pause", "end rerun 1"]),
        Case(
            name: "a pause that gives up fails the write", condition: true,
            answers: [
                "lock 1": .locked(ShardReadLock(nodes: [Node(.int(1))], through: 3, term: 2)),
                "confirm 3": .refusalConfirmed(false), "pause": .failed(Driver.refused, certainlyNotCarriedOut: true),
            ],
            steps: [
                "lock 1", "lock 3", "confirm 1", "confirm 3", "unlock 1", "unlock 3", "pause",
                "end failed ShardCallError",
            ]),
        Case(
            name: "parts committed together end at once", together: true, answers: [:],
            steps: ["together", "end committed forget -"]),
        Case(
            name: "an obstructed participant falls back to two-phase commit", together: true,
            answers: ["together": .committedTogether(.obstructed)],
            steps: [
                "together", "prepare 1", "order [1]", "decide 3", "order [3]", "finish 1", "end committed forget 3",
            ]),
    ]

    /// Each failure order gives exactly these steps and this end.
    @Test(arguments: Self.cases) func failureOrder(_ script: Case) throws {
        var driver = try Driver.write(condition: script.condition, together: script.together)
        #expect(driver.run { script.answers[Driver.name($0)] } != nil, "the transaction ends")
        #expect(driver.names == script.steps)
    }

    /// Prepares and decisions present the term each shard's read lock was taken in.
    @Test func locksTermsArePresented() throws {
        var driver = try Driver.write(condition: true)
        _ = driver.run { step in
            if case .lock(let shard, let paths) = step {
                return .locked(ShardReadLock(nodes: paths.map { _ in .empty }, through: 3, term: UInt64(10 + shard)))
            }
            return nil
        }
        for (step, _) in driver.transcript {
            switch step {
            case .prepare(let shard, _, let term), .decide(let shard, _, let term): #expect(term == UInt64(10 + shard))
            default: continue
            }
        }
    }

    /// A committed transaction's positions are the decision's and every finish's, in that order.
    @Test func aCommittedWriteWaitsForTheDecisionAndEveryFinish() throws {
        var driver = try Driver.write()
        guard case .committed(let positions, _, _)? = driver.run({ _ in nil }) else {
            Issue.record("the write commits")
            return
        }
        #expect(positions.map(\.shard) == [3, 1])
    }
}
