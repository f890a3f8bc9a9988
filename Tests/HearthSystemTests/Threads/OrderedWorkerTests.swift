import Glibc
import HearthSystem
import Synchronization
import Testing

/// The ordered hand-off thread: items handled in the order sent, from many senders, those that queued while the
/// handler ran together in one call; `finish` drains the queue before it returns; nothing is handled after it.
@Suite struct OrderedWorkerTests {
    @Test func handlesEveryItemInTheOrderSentAndDrainsOnFinish() async throws {
        let handled = Mutex<[Int]>([])
        let caller = pthread_self()
        let onOtherThread = Atomic(true)
        let worker = try OrderedWorker<Int>(name: "test-ordered") { items in
            if pthread_equal(pthread_self(), caller) != 0 { onOtherThread.store(false, ordering: .relaxed) }
            if items.contains(where: { $0 % 100 == 0 }) { usleep(1_000) }
            handled.withLock { $0 += items }
        }
        for item in 0..<2_000 { worker.send(item) }
        await worker.finish()
        #expect(handled.withLock { $0 } == Array(0..<2_000), "every item, in order, before finish returned")
        let wasOnOtherThread = onOtherThread.load(ordering: .relaxed)
        #expect(wasOnOtherThread)
        worker.send(2_000)
        await worker.finish()
        #expect(handled.withLock { $0.count } == 2_000, "an item sent after finish is dropped")
    }

    @Test func concurrentSendersKeepEachSendersOrder() async throws {
        let handled = Mutex<[(sender: Int, item: Int)]>([])
        let worker = try OrderedWorker<(Int, Int)>(name: "test-senders") { items in
            handled.withLock { $0 += items.map { (sender: $0.0, item: $0.1) } }
        }
        await withTaskGroup(of: Void.self) { group in
            for sender in 0..<4 {
                group.addTask { for item in 0..<500 { worker.send((sender, item)) } }
            }
        }
        await worker.finish()
        let all = handled.withLock { $0 }
        #expect(all.count == 2_000)
        for sender in 0..<4 {
            #expect(all.filter { $0.sender == sender }.map(\.item) == Array(0..<500))
        }
    }

    @Test func itemsSentWhileTheHandlerRunsArriveTogether() async throws {
        let calls = Mutex<[[Int]]>([])
        let entered = Atomic(false)
        let release = Atomic(false)
        let worker = try OrderedWorker<Int>(name: "test-together") { items in
            entered.store(true, ordering: .releasing)
            while !release.load(ordering: .acquiring) { usleep(100) }
            calls.withLock { $0.append(items) }
        }
        worker.send(0)
        while !entered.load(ordering: .acquiring) { usleep(100) }
        for item in 1...5 { worker.send(item) }
        release.store(true, ordering: .releasing)
        await worker.finish()
        #expect(calls.withLock { $0 } == [[0], [1, 2, 3, 4, 5]], "what queued behind the first call came in one")
    }

    /// Items sent many at once keep their order, whether they join items already queued or find the queue empty,
    /// and an empty send neither queues nor wakes anything.
    @Test func itemsSentManyAtOnceKeepTheirOrder() async throws {
        let calls = Mutex<[[Int]]>([])
        let entered = Atomic(false)
        let release = Atomic(false)
        let worker = try OrderedWorker<Int>(name: "test-many") { items in
            entered.store(true, ordering: .releasing)
            while !release.load(ordering: .acquiring) { usleep(100) }
            calls.withLock { $0.append(items) }
        }
        worker.send(contentsOf: [0, 1])
        while !entered.load(ordering: .acquiring) { usleep(100) }
        worker.send(contentsOf: [])
        worker.send(contentsOf: [2, 3])
        worker.send(4)
        worker.send(contentsOf: [5, 6])
        #expect(worker.backlog == 5)
        release.store(true, ordering: .releasing)
        await worker.finish()
        #expect(calls.withLock { $0 } == [[0, 1], [2, 3, 4, 5, 6]])
    }

    @Test func stopEndsTheThreadWithoutWaiting() async throws {
        let handled = Atomic(0)
        let worker = try OrderedWorker<Int>(name: "test-stop") { items in
            usleep(10_000)
            handled.add(items.count, ordering: .relaxed)
        }
        for item in 0..<5 { worker.send(item) }
        worker.stop()
        worker.send(99)
        await worker.finish()
        let count = handled.load(ordering: .relaxed)
        #expect(count == 5, "what was queued before stop is still handled")
    }
}
