import HearthWire
import Synchronization

/// Remembers the writes each realtime client sent, so that a write the client sends again after a reconnect (its
/// answer was lost with the connection) is answered as the first time instead of being applied twice: what makes a
/// `ServerValue.increment` count once.
///
/// A client is known across its connections by the session chain the protocol already carries: a reconnecting
/// client names its last session (`ls=`), and the new session takes that session's identity. A write is the same
/// write when the client sends it again under the same request id with the same content (the Hearth client keeps a
/// write's request id across reconnects; clients that renumber get no dedup and lose nothing). The ledger keeps
/// the most recent `capacity` writes and identities, in memory, each write as a hash of its request and what the
/// caller stores (a `PendingWrite` without its data), so a burst of large writes is not held twice: a write sent again to a node that restarted or to
/// another node in between is applied again, as Firebase applies it.
final class WireWriteLedger<Write: Sendable>: Sendable {
    struct Key: Hashable, Sendable {
        let identity: String
        let requestID: Int64
    }

    private struct State {
        var identities: [String: String] = [:]
        var identityOrder = FIFO<String>()
        var writes: [Key: (requestHash: Int, write: Write)] = [:]
        var writeOrder = FIFO<Key>()
    }

    /// Insertion order, oldest first, with amortised O(1) removal of the oldest.
    private struct FIFO<Element> {
        private var elements: [Element] = []
        private var head = 0

        var count: Int { self.elements.count - self.head }

        mutating func append(_ element: Element) { self.elements.append(element) }

        mutating func removeOldest() -> Element? {
            guard self.head < self.elements.count else { return nil }
            defer {
                self.head += 1
                if self.head > 1024 && self.head * 2 > self.elements.count {
                    self.elements.removeFirst(self.head)
                    self.head = 0
                }
            }
            return self.elements[self.head]
        }
    }

    private let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int = 100_000) {
        self.capacity = capacity
    }

    /// The identity of the new session `session`: that of `last`, the session the client names as its previous
    /// one, when known; else `last` itself, or the new session's own id for a first connection.
    func identity(ofSession session: String, replacing last: String?) -> String {
        self.state.withLock { state in
            let identity = last.map { state.identities[$0] ?? $0 } ?? session
            state.identities[session] = identity
            state.identityOrder.append(session)
            if state.identityOrder.count > self.capacity, let oldest = state.identityOrder.removeOldest() {
                state.identities[oldest] = nil
            }
            return identity
        }
    }

    /// The write this client already sent under this request id with this content, if remembered.
    func earlier(_ key: Key, _ request: WireRequest) -> Write? {
        self.state.withLock { state in
            guard let entry = state.writes[key], entry.requestHash == request.hashValue else { return nil }
            return entry.write
        }
    }

    /// Remembers a write once it is ordered.
    func record(_ key: Key, _ request: WireRequest, _ write: Write) {
        self.state.withLock { state in
            if state.writes.updateValue((request.hashValue, write), forKey: key) == nil {
                state.writeOrder.append(key)
            }
            if state.writeOrder.count > self.capacity, let oldest = state.writeOrder.removeOldest() {
                state.writes[oldest] = nil
            }
        }
    }
}
