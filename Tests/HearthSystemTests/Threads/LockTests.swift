import Dispatch
import HearthSystem
import Testing

@Suite struct LockTests {
    private struct Refusal: Error, Equatable {
        let reason: String
    }

    /// Eight threads adding to one counter under the lock lose no update.
    @Test func threadsNeverLoseAnUpdate() {
        let counter = Lock(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<20_000 {
                counter.withLock { $0 += 1 }
            }
        }
        #expect(counter.withLock { $0 } == 160_000)
    }

    /// A body's typed error reaches the caller, the state keeps what the body changed before throwing, and the lock
    /// is free again afterwards.
    @Test func aThrownErrorReleasesTheLock() {
        let lock = Lock([Int]())
        #expect(throws: Refusal(reason: "full")) {
            try lock.withLock { (values: inout [Int]) throws(Refusal) in
                values.append(1)
                throw Refusal(reason: "full")
            }
        }
        lock.withLock { $0.append(2) }
        #expect(lock.withLock { $0 } == [1, 2])
    }

    /// Copies of a lock guard one state, as one `Mutex` shared by reference would.
    @Test func copiesShareOneState() {
        let first = Lock("a")
        let second = first
        second.withLock { $0 += "b" }
        #expect(first.withLock { $0 } == "ab")
    }
}
