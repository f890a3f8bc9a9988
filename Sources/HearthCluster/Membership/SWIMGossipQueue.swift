/// Which member records still need piggybacking, and how often each was sent: SWIM's infection-style
/// dissemination buffer. Records go out least-sent first, and among equals the most recent update first; each
/// leaves the queue after its sending budget (λ·log n) is spent. The queue holds names only, so a message always
/// carries a member's current record.
struct SWIMGossipQueue: Sendable {
    private struct Entry: Sendable {
        var id: NodeID
        var timesSent: Int
        var enqueuedAt: UInt64
    }

    private var entries: [Entry] = []
    private var clock: UInt64 = 0

    var count: Int { self.entries.count }

    /// Queues news about `id`, replacing any older news about it (its budget starts again).
    mutating func enqueue(_ id: NodeID) {
        self.entries.removeAll { $0.id == id }
        self.clock += 1
        self.entries.append(Entry(id: id, timesSent: 0, enqueuedAt: self.clock))
    }

    /// Up to `limit` names to send now, skipping `excluded`; each taken name counts one send and leaves the queue
    /// once it was sent `budget` times.
    mutating func take(limit: Int, excluding excluded: NodeID?, budget: Int) -> [NodeID] {
        let order = self.entries.indices.filter { self.entries[$0].id != excluded }.sorted {
            let a = self.entries[$0]
            let b = self.entries[$1]
            return a.timesSent != b.timesSent ? a.timesSent < b.timesSent : a.enqueuedAt > b.enqueuedAt
        }
        let chosen = order.prefix(limit)
        var taken: [NodeID] = []
        for index in chosen {
            self.entries[index].timesSent += 1
            taken.append(self.entries[index].id)
        }
        self.entries.removeAll { $0.timesSent >= budget }
        return taken
    }

    /// Forgets news about `id` (its tombstone expired).
    mutating func remove(_ id: NodeID) {
        self.entries.removeAll { $0.id == id }
    }
}
