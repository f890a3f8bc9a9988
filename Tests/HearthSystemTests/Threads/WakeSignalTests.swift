import Glibc
import HearthSystem
import Synchronization
import Testing

@Suite struct WakeSignalTests {
    /// A signal sent before anyone waits is kept, so the next wait returns at once.
    @Test func remembersASignalSentBeforeTheWait() {
        let signal = WakeSignal()
        signal.signal()
        signal.signal()
        let start = MonotonicClock.now()
        signal.wait()
        #expect(MonotonicClock.now() - start < 1_000_000_000)
        let deadline = MonotonicClock.now() + MonotonicClock.nanoseconds(0.05)
        signal.wait(untilNanoseconds: deadline)
        #expect(MonotonicClock.now() >= deadline, "two signals before a wait count once")
    }

    @Test func timedWaitReturnsAtTheDeadlineWithoutASignal() {
        let signal = WakeSignal()
        let deadline = MonotonicClock.now() + MonotonicClock.nanoseconds(0.03)
        signal.wait(untilNanoseconds: deadline)
        #expect(MonotonicClock.now() >= deadline)
    }

    @Test func wakesAWaiterFromAnotherThread() throws {
        let signal = WakeSignal()
        let woken = Atomic<Bool>(false)
        let waiter = try DedicatedThread.start(name: "test-waiter") {
            signal.wait()
            woken.store(true, ordering: .releasing)
        }
        usleep(20_000)
        signal.signal()
        waiter.join()
        let wasWoken = woken.load(ordering: .acquiring)
        #expect(wasWoken)
    }
}
