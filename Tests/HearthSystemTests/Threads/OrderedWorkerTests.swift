import Glibc
import HearthSystem
import Synchronization
import Testing

/// The ordered hand-off thread: items handled one at a time in the order sent, from many senders; `finish` drains
/// the queue before it returns; nothing is handled after it.
@Suite struct OrderedWorkerTests {
    @Test func handlesEveryItemInTheOrderSentAndDrainsOnFinish() async throws {
        let handled = Mutex<[Int]>([])
        let caller = pthread_self()
        let onOtherThread = Atomic(true)
        let worker = try OrderedWorker<Int>(name: "test-ordered") { item in
            if pthread_equal(pthread_self(), caller) != 0 { onOtherThread.store(false, ordering: .relaxed) }
            if item % 100 == 0 { usleep(1_000) }
            handled.withLock { $0.append(item) }
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
        let worker = try OrderedWorker<(Int, Int)>(name: "test-senders") { sender, item in
            handled.withLock { $0.append((sender, item)) }
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

    @Test func stopEndsTheThreadWithoutWaiting() async throws {
        let handled = Atomic(0)
        let worker = try OrderedWorker<Int>(name: "test-stop") { _ in
            usleep(10_000)
            handled.add(1, ordering: .relaxed)
        }
        for item in 0..<5 { worker.send(item) }
        worker.stop()
        worker.send(99)
        await worker.finish()
        let count = handled.load(ordering: .relaxed)
        #expect(count == 5, "what was queued before stop is still handled")
    }
}
