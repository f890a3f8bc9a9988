import HearthSystem
import Synchronization

/// The node-wide budget for memory held on clients' behalf (anchor: Redis 7's `maxmemory-clients`): every accepted
/// connection's queued outbound bytes and buffered inbound bytes are charged here as they come and credited as they
/// go. When a charge takes the total past the limit, the reactor is asked once to bring it back under: it closes the
/// connections holding the most first, each with its protocol's goodbye (`Reactor.evict`).
///
/// A buffer shared by many connections (one event sent to every listener) is charged once per connection that
/// queued it: the total is what the node would hold were nothing shared, so it errs on the side of closing early.
package final class ClientMemoryBudget: Sendable {
    /// The most bytes clients may hold before the biggest holders are closed.
    package let limit: Int
    private let held = Atomic<Int>(0)
    private let isEnforcing = Atomic<Bool>(false)

    package init(limit: Int) {
        precondition(limit > 0, "a client memory budget must be positive, not \(limit)")
        self.limit = limit
    }

    /// The bytes clients hold now.
    package var heldBytes: Int { self.held.load(ordering: .relaxed) }

    /// Adds `delta` bytes (negative: released).
    /// - Returns: true when the total is over the limit and no enforcement is pending: the caller asks the reactor
    ///   to enforce the budget, and later charges return false until `enforced()`.
    func charge(_ delta: Int) -> Bool {
        guard delta != 0 else { return false }
        let total = self.held.add(delta, ordering: .relaxed).newValue
        guard delta > 0, total > self.limit else { return false }
        return !self.isEnforcing.exchange(true, ordering: .acquiringAndReleasing)
    }

    /// The reactor has acted on the last request: the next charge over the limit asks again.
    func enforced() {
        self.isEnforcing.store(false, ordering: .releasing)
    }

    /// Which connections to close to bring `total` down to `limit`: those holding the most first (among equals, the
    /// newest), until what they hold covers the excess. Connections holding nothing are never chosen.
    /// - Parameter held: each candidate's identifier and the bytes it holds.
    static func evictionOrder(_ held: [(id: UInt64, bytes: Int)], total: Int, limit: Int) -> [UInt64] {
        var excess = total - limit
        var chosen: [UInt64] = []
        let candidates = held.filter { $0.bytes > 0 }.sorted {
            $0.bytes != $1.bytes ? $0.bytes > $1.bytes : $0.id > $1.id
        }
        for candidate in candidates where excess > 0 {
            chosen.append(candidate.id)
            excess -= candidate.bytes
        }
        return chosen
    }
}

/// Why the node closed a client's connection to protect its memory.
public enum ConnectionEviction: Sendable, Hashable, CustomStringConvertible {
    /// Clients together held more than `--max-client-memory`, and this one held the most.
    case clientMemoryBudget
    /// More than the soft limit of answers waited for this client for longer than the grace period.
    case outputSoftLimit

    /// What the client is told (short enough for a WebSocket close frame's reason, 123 bytes).
    public var description: String {
        switch self {
        case .clientMemoryBudget:
            "Evicted: the server held too much data for its clients and this one held the most. Reconnect and "
                + "read promptly."
        case .outputSoftLimit:
            "Evicted: this client read too slowly and too much data waited for it too long. Reconnect and read "
                + "promptly."
        }
    }
}
