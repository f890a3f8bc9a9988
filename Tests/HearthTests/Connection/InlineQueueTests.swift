import Glibc
import HearthSystem
import HearthTestKit
import Testing

@testable import Hearth

@Suite struct InlineQueueTests {
    /// What jobs recorded, in the order they ran, with the thread each ran on.
    final class Trace: Sendable {
        private let entries = Lock<[(label: Int, thread: pthread_t)]>([])

        func record(_ label: Int) { self.entries.withLock { $0.append((label, pthread_self())) } }

        var labels: [Int] { self.entries.withLock { $0.map(\.label) } }

        var threads: [pthread_t] { self.entries.withLock { $0.map(\.thread) } }
    }

    /// An idle queue runs a job before `async` returns, on the caller's thread; a job it submits runs after it,
    /// not inside it.
    @Test func anIdleQueueRunsAJobOnTheCallersThreadAndNestedJobsAfterIt() {
        let queue = InlineQueue(label: "test")
        let trace = Trace()
        queue.async {
            trace.record(1)
            queue.async { trace.record(3) }
            trace.record(2)
        }
        #expect(trace.labels == [1, 2, 3])
        #expect(trace.threads.allSatisfy { pthread_equal($0, pthread_self()) != 0 })
    }

    /// A job submitted from another thread while one runs is run by the thread already running, after it.
    @Test func aJobFromAnotherThreadRunsOnTheRunningThread() async throws {
        let queue = InlineQueue(label: "test")
        let trace = Trace()
        let submitted = Flag()
        let runner = Lock<pthread_t?>(nil)
        let first = try DedicatedThread.start(name: "first") {
            queue.async {
                runner.withLock { $0 = pthread_self() }
                trace.record(1)
                while !submitted.isSet { sched_yield() }
                trace.record(2)
            }
        }
        #expect(await eventually(seconds: 10) { trace.labels == [1] })
        queue.async { trace.record(3) }
        submitted.set()
        first.join()
        #expect(trace.labels == [1, 2, 3])
        let threads = trace.threads
        #expect(threads.allSatisfy { thread in runner.withLock { $0.map { pthread_equal($0, thread) != 0 } } == true })
    }

    /// A thread that keeps getting jobs runs `batchLimit` of them and hands the rest on, so its `async` returns; the
    /// rest still run, in order, on another thread. (Not an async test: its thread must not go back to a pool the
    /// queue's spare worker could come from.)
    @Test func aBusyQueueHandsItsJobsOnAfterTheBatchLimit() {
        let queue = InlineQueue(label: "test")
        let trace = Trace()
        let total = InlineQueue.batchLimit * 3
        @Sendable func chain(_ label: Int) {
            trace.record(label)
            if label < total { queue.async { chain(label + 1) } }
        }
        queue.async { chain(1) }
        #expect(eventuallyBlocking(seconds: 10) { trace.labels.count == total })
        #expect(trace.labels == Array(1...total))
        let caller = pthread_self()
        let here = trace.threads.map { pthread_equal($0, caller) != 0 }
        #expect(
            here == Array(repeating: true, count: InlineQueue.batchLimit)
                + Array(repeating: false, count: total - InlineQueue.batchLimit))
    }

    /// `waitUntilIdle` returns only after a job running on another thread has returned; from inside a job it
    /// returns at once.
    @Test func waitingUntilIdleWaitsForTheRunningJob() async throws {
        let queue = InlineQueue(label: "test")
        let release = Flag()
        let finished = Flag()
        let isCurrentInside = Lock(false)
        let worker = try DedicatedThread.start(name: "worker") {
            queue.async {
                queue.waitUntilIdle()
                isCurrentInside.withLock { $0 = queue.isCurrent }
                while !release.isSet { sched_yield() }
                finished.set()
            }
        }
        #expect(await eventually(seconds: 10) { isCurrentInside.withLock { $0 } })
        #expect(!queue.isCurrent)
        let releaser = try DedicatedThread.start(name: "releaser") {
            usleep(50_000)
            release.set()
        }
        queue.waitUntilIdle()
        #expect(finished.isSet)
        worker.join()
        releaser.join()
    }
}
