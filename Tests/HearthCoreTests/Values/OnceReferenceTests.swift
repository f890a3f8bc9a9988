import Dispatch
import HearthCore
import Synchronization
import Testing

/// The reference set at most once (a WebSocket's writer): empty until stored, the first store wins, and the object is
/// held exactly as long as the reference.
@Suite struct OnceReferenceTests {
    private final class Object: Sendable {
        let name: String

        init(_ name: String) {
            self.name = name
        }
    }

    /// A new reference is empty; the first store is what every later load and store returns.
    @Test func theFirstStoreWins() {
        let reference = OnceReference<Object>()
        #expect(reference.load() == nil)
        let first = Object("first")
        #expect(reference.storeIfNil(first) === first)
        #expect(reference.storeIfNil(Object("second")) === first)
        #expect(reference.load() === first)
    }

    /// Threads racing to store agree on one object, and the losers' objects are not kept.
    @Test func racingStoresAgreeOnOne() {
        let reference = OnceReference<Object>()
        let winners = Mutex<[ObjectIdentifier]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            let stored = reference.storeIfNil(Object("thread \(index)"))
            winners.withLock { $0.append(ObjectIdentifier(stored)) }
        }
        let stored = reference.load()
        #expect(stored != nil)
        #expect(winners.withLock { Set($0) } == Set(stored.map { [ObjectIdentifier($0)] } ?? []))
    }

    /// The reference keeps its object alive, and lets it go when it goes itself; an object it refused is not kept.
    @Test func itHoldsItsObjectForItsOwnLifetime() {
        weak var kept: Object?
        weak var refused: Object?
        do {
            let reference = OnceReference<Object>()
            do {
                let object = Object("kept")
                let other = Object("refused")
                kept = object
                refused = other
                reference.storeIfNil(object)
                reference.storeIfNil(other)
            }
            #expect(kept != nil)
            #expect(refused == nil)
            #expect(reference.load()?.name == "kept")
        }
        #expect(kept == nil)
    }
}
