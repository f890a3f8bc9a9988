import HearthSystem
import Synchronization

/// Closing connections to protect the node's memory: the soft limit's verdict on one connection, and the client
/// memory budget's on the biggest holders.
extension Reactor {
    /// Brings the clients' memory back under the budget: closes the connections holding the most first, until what
    /// they held covers the excess.
    func enforceClientMemoryBudget() {
        guard let budget = self.settings.clientMemory.budget else { return }
        defer { budget.enforced() }
        let total = budget.heldBytes
        guard total > budget.limit else { return }
        let held = self.connections.values.filter { $0.state == .active }.map {
            (id: $0.id, bytes: $0.writer.heldBytes)
        }
        for id in ClientMemoryBudget.evictionOrder(held, total: total, limit: budget.limit) {
            if let connection = self.connections[id] { self.evict(connection, reason: .clientMemoryBudget) }
        }
    }

    /// Closes `connection` to free what it holds: its messages not yet begun are dropped, its handler queues the
    /// protocol's goodbye (a WebSocket close frame, an SSE `cancel` event) after the message in progress, and the
    /// connection closes once that is flushed, or after the close timeout if the client does not read it.
    func evict(_ connection: Connection, reason: ConnectionEviction) {
        guard connection.state == .active else { return }
        let held = connection.writer.heldBytes
        switch reason {
        case .clientMemoryBudget: self.counters.evictedForMemoryBudget.add(1, ordering: .relaxed)
        case .outputSoftLimit: self.counters.evictedForSoftLimit.add(1, ordering: .relaxed)
        }
        self.settings.onEviction(connection.remoteAddress, reason, held)
        connection.writer.beginEviction()
        connection.handler?.evicted(connection, reason: reason)
        guard connection.state == .active else { return }
        connection.writer.endEviction()
        self.closeAfterFlush(connection)
    }
}
