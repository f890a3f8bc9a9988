import HearthSystem
import Synchronization
import Testing

@Suite struct LockedClosureTests {
    /// A closure kept in a lock through `LockedClosure` can be read and called 200,000 times: each read costs the
    /// same (a closure kept directly would gain a reabstraction thunk per read and take minutes, then overflow the
    /// stack).
    @Test func readingAKeptClosureDoesNotGetSlower() {
        let calls = Atomic(0)
        let kept = Lock<LockedClosure<@Sendable (Int) -> Void>?>(nil)
        kept.withLock { $0 = LockedClosure({ step in calls.add(step, ordering: .relaxed) }) }
        let started = ContinuousClock.now
        for _ in 0..<200_000 {
            kept.withLock { $0 }?.call(1)
        }
        #expect(calls.load(ordering: .relaxed) == 200_000)
        #expect(ContinuousClock.now - started < .seconds(20))
    }
}
