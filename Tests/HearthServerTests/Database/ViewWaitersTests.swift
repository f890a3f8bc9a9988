import Testing

@testable import HearthDatabase
@testable import HearthServer

/// The read view's waits as a pure value: by shard index (a write's acknowledgement), by position of the shard's
/// replicated log (a read behind the read barrier), with deadlines.
@Suite struct ViewWaitersTests {
    /// A wait by index ends once its shard shows that index; other shards' progress does not end it.
    @Test func indexWaitsEndWhenTheirShardShowsTheIndex() {
        var waiters = ViewWaiters<Int>()
        waiters.wait(1, shard: 0, index: 5)
        waiters.wait(2, shard: 0, index: 7)
        waiters.wait(3, shard: 1, index: 1)
        #expect(waiters.shown([4, 0]).isEmpty)
        #expect(Set(waiters.shown([5, 0])) == [1])
        #expect(Set(waiters.shown([7, 1])) == [2, 3])
        #expect(waiters.isEmpty)
    }

    /// A wait by position turns, once the shard's log is received through it, into a wait for everything received
    /// by then: it ends only when that is shown (a transaction's part may be held back until its other parts came).
    @Test func positionWaitsWaitForWhatWasReceivedThenToBeShown() {
        var waiters = ViewWaiters<Int>()
        let far = ContinuousClock.now + .seconds(60)
        waiters.wait(1, shard: 0, position: 10, deadline: far)
        waiters.wait(2, shard: 0, position: 20, deadline: far)
        #expect(waiters.shown([100]).isEmpty)
        waiters.received(shard: 0, position: 12, index: 4)
        #expect(waiters.shown([3]).isEmpty)
        #expect(waiters.shown([4]) == [1])
        waiters.received(shard: 1, position: 30, index: 9)
        #expect(waiters.shown([100, 100]).isEmpty)
        waiters.received(shard: 0, position: 20, index: 6)
        #expect(waiters.shown([6]) == [2])
        #expect(waiters.isEmpty)
    }

    /// Waits past their deadline end as expired, whichever stage they are in; waits without one never expire.
    @Test func waitsExpireAtTheirDeadline() {
        var waiters = ViewWaiters<Int>()
        let now = ContinuousClock.now
        waiters.wait(1, shard: 0, position: 10, deadline: now)
        waiters.wait(2, shard: 0, position: 5, deadline: now + .seconds(1))
        waiters.wait(3, shard: 0, index: 50)
        waiters.received(shard: 0, position: 6, index: 40)
        #expect(waiters.expired(now: now) == [1])
        #expect(waiters.expired(now: now + .seconds(1)) == [2])
        #expect(waiters.expired(now: now + .seconds(100)).isEmpty)
        #expect(waiters.removeAll() == [3])
        #expect(waiters.isEmpty)
    }
}
