import Synchronization

/// What all long-polling sessions of a node together may hold: the sessions themselves, segments waiting to be
/// joined, answers waiting for a poll, and what each session keeps for its client (messages not yet processed,
/// listens, onDisconnect operations).
///
/// A WebSocket's buffers are charged to the node's client memory budget, whose eviction closes the connections
/// holding the most. A long-polling session spans many short HTTP requests, so there is no connection to evict:
/// its bytes are held to a pool of their own, as large as the budget (`--max-client-memory`). A session whose
/// segment or answer would pass it is ended instead, with the reason. Each session is bounded on its own as well
/// (`WireLongPollAssembler`, `--max-queued-bytes`).
package final class WireLongPollMemory: Sendable {
    /// What one long-polling session is charged for being open (the session, its transport and their tables),
    /// so that starting sessions without end is refused too.
    static let sessionBytes = 4096

    /// The most bytes long-polling sessions may hold together.
    let limit: Int
    private let held = Atomic<Int>(0)
    private let refusals = Atomic<Int>(0)

    init(limit: Int) {
        self.limit = max(limit, 0)
    }

    /// The bytes long-polling sessions hold now.
    package var heldBytes: Int { self.held.load(ordering: .relaxed) }

    /// Sessions ended for sending a segment out of bounds or passing `limit` (`hearth_wire_long_poll_refused_total`).
    package var refusedSessions: Int { self.refusals.load(ordering: .relaxed) }

    /// Takes `bytes` when they fit under the limit; otherwise takes nothing and returns false.
    func take(_ bytes: Int) -> Bool {
        var current = self.held.load(ordering: .relaxed)
        while true {
            guard bytes <= self.limit - current else { return false }
            let (isExchanged, original) = self.held.compareExchange(
                expected: current, desired: current + bytes, ordering: .relaxed)
            if isExchanged { return true }
            current = original
        }
    }

    /// Gives back `bytes` taken before.
    func release(_ bytes: Int) {
        guard bytes > 0 else { return }
        self.held.subtract(bytes, ordering: .relaxed)
    }

    /// Counts a session ended for its segments or for passing the pool.
    func countRefusal() {
        self.refusals.add(1, ordering: .relaxed)
    }
}
