import HearthCluster
import Testing

/// The batching of read-index requests into rounds, their retries and deadlines, as a pure value.
@Suite struct ReadIndexRoundsTests {
    /// Requests waiting while a round is out share the next round: one ask answers all of them.
    @Test func requestsArrivingDuringARoundShareTheNextOne() throws {
        var rounds = ReadIndexRounds(nonce: 7, retryTicks: 3)
        let (first, started) = rounds.enqueue(timeoutTicks: 100)
        let firstContext = try #require(started.ask)
        rounds.asked(firstContext, succeeded: true)
        var later: [ReadIndexRounds.Request] = []
        for _ in 0..<20 {
            let (request, effects) = rounds.enqueue(timeoutTicks: 100)
            #expect(effects.ask == nil)
            later.append(request)
        }
        let answered = rounds.answer(context: firstContext, index: 5)
        #expect(answered.answered == [first: 5])
        let secondContext = try #require(answered.ask)
        #expect(secondContext != firstContext)
        rounds.asked(secondContext, succeeded: true)
        let second = rounds.answer(context: secondContext, index: 9)
        #expect(second.answered == Dictionary(uniqueKeysWithValues: later.map { ($0, UInt64(9)) }))
        #expect(second.ask == nil)
        #expect(rounds.pendingCount == 0)
    }

    /// An answer for another round (an earlier one, or another run's) answers nothing; a request that joined after
    /// the round started is never answered by it.
    @Test func answersForOtherContextsAreIgnored() throws {
        var rounds = ReadIndexRounds(nonce: 1, retryTicks: 3)
        let (_, started) = rounds.enqueue(timeoutTicks: 100)
        let context = try #require(started.ask)
        var other = ReadIndexRounds(nonce: 2, retryTicks: 3)
        let foreign = try #require(other.enqueue(timeoutTicks: 100).1.ask)
        #expect(foreign != context)
        #expect(rounds.answer(context: foreign, index: 3) == ReadIndexRounds.Effects())
        #expect(rounds.pendingCount == 1)
    }

    /// A round without an answer is asked again every `retryTicks` with the same context, at once when the leader
    /// changes, and on every tick while no leader was known.
    @Test func unansweredRoundsAreAskedAgain() throws {
        var rounds = ReadIndexRounds(nonce: 3, retryTicks: 3)
        let (request, started) = rounds.enqueue(timeoutTicks: 100)
        let context = try #require(started.ask)
        rounds.asked(context, succeeded: false)
        #expect(rounds.tick().ask == context)
        rounds.asked(context, succeeded: true)
        #expect(rounds.tick().ask == nil)
        #expect(rounds.tick().ask == nil)
        #expect(rounds.tick().ask == context)
        #expect(rounds.leaderChanged().ask == context)
        #expect(rounds.answer(context: context, index: 4).answered == [request: 4])
        #expect(rounds.leaderChanged().ask == nil)
    }

    /// A request past its deadline fails: for want of a leader when none was ever reached, as timed out otherwise;
    /// the next round starts for those still waiting.
    @Test func requestsFailAtTheirDeadline() throws {
        var rounds = ReadIndexRounds(nonce: 4, retryTicks: 10)
        let (lonely, started) = rounds.enqueue(timeoutTicks: 2)
        let context = try #require(started.ask)
        rounds.asked(context, succeeded: false)
        #expect(rounds.tick().failed.isEmpty)
        #expect(rounds.tick().failed == [lonely: .noLeader])
        #expect(rounds.pendingCount == 0)

        let (first, next) = rounds.enqueue(timeoutTicks: 2)
        let firstContext = try #require(next.ask)
        rounds.asked(firstContext, succeeded: true)
        let (second, _) = rounds.enqueue(timeoutTicks: 5)
        _ = rounds.tick()
        let expired = rounds.tick()
        #expect(expired.failed == [first: .timedOut])
        let secondContext = try #require(expired.ask)
        #expect(secondContext != firstContext)
        rounds.asked(secondContext, succeeded: true)
        #expect(rounds.answer(context: firstContext, index: 8).answered.isEmpty)
        #expect(rounds.answer(context: secondContext, index: 9).answered == [second: 9])
    }

    /// Stopping fails every request, in the round and waiting for the next.
    @Test func stoppingFailsEveryRequest() throws {
        var rounds = ReadIndexRounds(nonce: 5, retryTicks: 3)
        let (first, _) = rounds.enqueue(timeoutTicks: 10)
        let (second, _) = rounds.enqueue(timeoutTicks: 10)
        #expect(rounds.stop().failed == [first: .stopped, second: .stopped])
        #expect(rounds.pendingCount == 0)
    }
}
