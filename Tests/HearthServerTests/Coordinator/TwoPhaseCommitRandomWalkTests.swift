import HearthCore
import HearthTestKit
import Testing

@testable import HearthDatabase
@testable import HearthServer

/// Seeded random walks through the transaction's steps: every call may succeed, be refused, lose its answer or
/// meet any answer a shard can give, in any order, and the value's promises hold whatever happens.
@Suite struct TwoPhaseCommitRandomWalkTests {
    typealias Driver = TwoPhaseCommitDriver

    /// Any answer a shard (or the log) may give `step`.
    private static func answer(_ step: TwoPhaseCommit.Step, using random: inout SeededRandom) -> TwoPhaseCommit.Event {
        let failures: [TwoPhaseCommit.Event] = [
            .failed(Driver.refused, certainlyNotCarriedOut: true), .failed(Driver.lost, certainlyNotCarriedOut: false),
        ]
        var choices: [TwoPhaseCommit.Event] = [Driver.success(step), Driver.success(step), Driver.success(step)]
        switch step {
        case .commitTogether: choices += [.committedTogether(.obstructed)] + failures
        case .lock(_, let paths):
            choices += [.locked(ShardReadLock(nodes: paths.map { _ in Node(.int(1)) }, through: 3, term: 2))]
            choices += failures
        case .confirmRefusal: choices += [.refusalConfirmed(false)] + failures
        case .prepare: choices += [.prepared(.needsAllShards), .prepared(.duplicate(through: 2))] + failures
        case .waitUntilOrdered: choices += failures
        case .decide:
            choices += [
                .decided(.needsAllShards), .decided(.duplicate(through: 2)),
                .decided(.alreadyDecided(commit: false, at: nil)), .decided(.alreadyDecided(commit: true, at: nil)),
            ]
            choices += failures
        case .finish(_, commit: true): choices += [.finished(nil)] + failures
        case .finish: choices += failures
        case .pauseBeforeRerun: choices += failures
        case .unlock, .end: break
        }
        return choices[Int(random.next() % UInt64(choices.count))]
    }

    /// What the transcript shows of the transaction's decision.
    private enum Decision { case none, uncertain, logged }

    /// The promises, checked against one walk's transcript:
    /// - success (`committed`) only after the decision was logged and ordered, or every part committed at once;
    /// - never an abort once the decision is logged or may be (a decide answer lost, a commit already there);
    /// - every part that is or may be prepared is aborted, unless the decision is logged or may be;
    /// - every read lock asked for is given back, unless the decision is logged (which clears them);
    /// - a decision whose answer was lost ends as that failure, never as success, stale or duplicate;
    /// - the anchor forgets only a logged decision.
    private static func check(_ driver: Driver, _ end: TwoPhaseCommit.End, seed: UInt64) {
        var decision = Decision.none
        var isOrdered = false
        var together = false
        var parts: Set<Int> = []
        var aborted: Set<Int> = []
        var locked: Set<Int> = []
        var unlocked: Set<Int> = []
        var lostDecision = false
        for (step, event) in driver.transcript {
            switch (step, event) {
            case (.commitTogether, .committedTogether(.committed)?): together = true
            case (.lock(let shard, _), _): locked.insert(shard)
            case (.unlock(let shard), _): unlocked.insert(shard)
            case (.prepare(let shard, _, _), .prepared(.prepared)?),
                (.prepare(let shard, _, _), .failed(_, certainlyNotCarriedOut: false)?):
                parts.insert(shard)
            case (.finish(let shard, commit: false), _):
                #expect(decision == .none, "seed \(seed): an abort after the decision may be logged")
                aborted.insert(shard)
            case (.decide, .decided(.logged)?): decision = .logged
            case (.decide, .decided(.alreadyDecided(commit: true, _))?): decision = .uncertain
            case (.decide, .failed(_, certainlyNotCarriedOut: false)?):
                decision = .uncertain
                lostDecision = true
            case (.waitUntilOrdered, .ordered?) where decision == .logged: isOrdered = true
            default: continue
            }
        }
        switch end {
        case .committed(_, _, let forgetAt):
            #expect(together || (decision == .logged && isOrdered), "seed \(seed): success without a decision")
            if forgetAt != nil { #expect(decision == .logged, "seed \(seed): forgets a decision never logged") }
        case .failed where lostDecision:
            break
        default:
            #expect(!lostDecision, "seed \(seed): a lost decision answered as \(end)")
        }
        if decision == .none {
            #expect(parts.isSubset(of: aborted), "seed \(seed): parts \(parts) left prepared, aborted \(aborted)")
        }
        if decision != .logged {
            #expect(locked.isSubset(of: unlocked), "seed \(seed): locks \(locked) kept, unlocked \(unlocked)")
        }
    }

    /// Over many seeds, a walk of any answers always ends, and every promise holds at its end.
    @Test(arguments: 0..<8) func everyWalkKeepsThePromises(_ batch: UInt64) throws {
        for seed in (batch * 250)..<((batch + 1) * 250) {
            var random = SeededRandom(seed: seed)
            var driver = try Driver.write(condition: random.next() % 2 == 0, together: random.next() % 3 == 0)
            guard let end = driver.run({ Self.answer($0, using: &random) }) else {
                Issue.record("seed \(seed): the transaction did not end: \(driver.names)")
                continue
            }
            Self.check(driver, end, seed: seed)
        }
    }
}
