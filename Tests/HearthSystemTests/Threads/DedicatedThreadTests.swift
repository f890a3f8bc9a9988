import Foundation
import HearthSystem
import Synchronization
import Testing

@Suite struct DedicatedThreadTests {
    /// `join()` returns only after the body has run, and the body runs on a thread of its own.
    @Test func joinWaitsForTheBody() throws {
        let ran = Atomic<Bool>(false)
        let caller = pthread_self()
        let onOtherThread = Atomic<Bool>(false)
        let thread = try DedicatedThread.start(name: "test-join") {
            usleep(20_000)
            onOtherThread.store(pthread_equal(pthread_self(), caller) == 0, ordering: .relaxed)
            ran.store(true, ordering: .releasing)
        }
        thread.join()
        let (didRun, wasOnOtherThread) = (ran.load(ordering: .acquiring), onOtherThread.load(ordering: .relaxed))
        #expect(didRun)
        #expect(wasOnOtherThread)
    }

    /// Lowering the priority affects the calling thread only (its nice value in /proc), not the process.
    @Test func lowersOnlyTheCallingThreadsPriority() throws {
        let nice = Mutex<(thread: String, process: String)>(("", ""))
        try DedicatedThread.start(name: "test-nice") {
            let lowered = DedicatedThread.lowerCurrentThreadPriority(nice: 10)
            func niceField(_ path: String) -> String {
                let stat = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
                let afterName = stat.split(separator: ")").last.map(String.init) ?? ""
                let fields = afterName.split(separator: " ")
                return fields.count > 17 ? String(fields[16]) : "?"
            }
            nice.withLock {
                $0 = (lowered ? niceField("/proc/thread-self/stat") : "refused", niceField("/proc/self/stat"))
            }
        }.join()
        let seen = nice.withLock { $0 }
        #expect(seen.thread == "10")
        #expect(seen.process == "0")
    }

    /// The thread carries its name (cut to Linux's 15 bytes), so `top -H` and debuggers show what it is.
    @Test func namesTheThread() throws {
        let name = Mutex<String>("")
        try DedicatedThread.start(name: "hearth-a-very-long-name") {
            let comm = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
            name.withLock { $0 = comm.trimmingCharacters(in: .newlines) }
        }.join()
        #expect(name.withLock { $0 } == "hearth-a-very-l")
    }

    /// A detached thread runs to completion on its own.
    @Test func detachedThreadsRunToCompletion() throws {
        let done = WakeSignal()
        let count = Atomic<Int>(0)
        for _ in 0..<4 {
            try DedicatedThread.start(name: "test-detach") {
                if count.add(1, ordering: .relaxed).newValue == 4 { done.signal() }
            }.detach()
        }
        done.wait(untilNanoseconds: MonotonicClock.now() + MonotonicClock.nanoseconds(10))
        let finished = count.load(ordering: .relaxed)
        #expect(finished == 4)
    }
}
