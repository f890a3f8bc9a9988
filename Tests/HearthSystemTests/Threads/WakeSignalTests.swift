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

    /// A timed wait ends at a signal from another thread well before its deadline, and a signal sent after a timed
    /// wait ran out is kept for the next wait.
    @Test func timedWaitEndsAtASignalAndATimeOutLeavesNoMark() throws {
        let signal = WakeSignal()
        let waiter = try DedicatedThread.start(name: "test-waiter") {
            signal.wait(untilNanoseconds: MonotonicClock.now() + MonotonicClock.nanoseconds(30))
        }
        usleep(20_000)
        let start = MonotonicClock.now()
        signal.signal()
        waiter.join()
        #expect(MonotonicClock.now() - start < MonotonicClock.nanoseconds(10))

        signal.wait(untilNanoseconds: MonotonicClock.now() + MonotonicClock.nanoseconds(0.01))
        signal.signal()
        let again = MonotonicClock.now()
        signal.wait()
        #expect(MonotonicClock.now() - again < MonotonicClock.nanoseconds(10))
    }

    /// Two threads hand a turn back and forth, each sleeping until the other signals: a signal lost in any race
    /// between the exchange and the sleep leaves both asleep and the rounds unfinished.
    @Test func pingPongLosesNoWakeUp() throws {
        let rounds = 20_000
        let ping = WakeSignal()
        let pong = WakeSignal()
        let done = WakeSignal()
        let played = Atomic<Int>(0)
        let stop = Atomic<Bool>(false)
        let pinger = try DedicatedThread.start(name: "test-ping") {
            for _ in 0..<rounds where !stop.load(ordering: .acquiring) {
                pong.signal()
                ping.wait()
            }
        }
        let ponger = try DedicatedThread.start(name: "test-pong") {
            for _ in 0..<rounds where !stop.load(ordering: .acquiring) {
                pong.wait()
                played.add(1, ordering: .relaxed)
                ping.signal()
            }
            done.signal()
        }
        done.wait(untilNanoseconds: MonotonicClock.now() + MonotonicClock.nanoseconds(60))
        let finished = played.load(ordering: .relaxed)
        #expect(finished == rounds)
        stop.store(true, ordering: .releasing)
        ping.signal()
        pong.signal()
        pinger.join()
        ponger.join()
    }

    /// A consumer that looks for work after every return, sleeping by turns in untimed and very short timed waits
    /// (the WAL writer's gather), sees every item a producer queues and signals: it never sleeps with work queued.
    @Test func aConsumerNeverSleepsWithWorkQueued() throws {
        let items = 50_000
        let signal = WakeSignal()
        let queued = Atomic<Int>(0)
        let taken = Atomic<Int>(0)
        let done = WakeSignal()
        let consumer = try DedicatedThread.start(name: "test-consumer") {
            var turns = 0
            while taken.load(ordering: .relaxed) < items {
                let available = queued.load(ordering: .acquiring)
                if available > taken.load(ordering: .relaxed) {
                    taken.store(available, ordering: .relaxed)
                    continue
                }
                turns += 1
                if turns % 2 == 0 {
                    signal.wait(untilNanoseconds: MonotonicClock.now() + 20_000)
                } else {
                    signal.wait()
                }
            }
            done.signal()
        }
        for index in 0..<items {
            queued.store(index + 1, ordering: .releasing)
            signal.signal()
            if index % 64 == 0 { sched_yield() }
        }
        done.wait(untilNanoseconds: MonotonicClock.now() + MonotonicClock.nanoseconds(60))
        let seen = taken.load(ordering: .relaxed)
        #expect(seen == items)
        if seen < items {
            taken.store(items, ordering: .relaxed)
            signal.signal()
        }
        consumer.join()
    }
}
