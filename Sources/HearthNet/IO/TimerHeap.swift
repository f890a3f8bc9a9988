/// A binary min-heap of (deadline, key) pairs: the reactor's timer queue for connection timers (a protocol's own,
/// connect timeouts, linger bounds), the listener's back-off and scheduled work, each under its own key.
///
/// Entries are never removed early; the reactor checks an entry against the owner's current deadline when it pops,
/// which keeps rescheduling O(1) for the common case of a deadline moving later. Push and pop are O(log n).
struct TimerHeap {
    struct Entry {
        var deadline: UInt64
        /// The connection ID, listener token or scheduled-work key the entry belongs to.
        var key: UInt64
    }

    private var entries: [Entry] = []

    var isEmpty: Bool { self.entries.isEmpty }
    var count: Int { self.entries.count }

    /// The earliest entry, if any.
    var first: Entry? { self.entries.first }

    mutating func push(_ entry: Entry) {
        self.entries.append(entry)
        var child = self.entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard self.entries[child].deadline < self.entries[parent].deadline else { break }
            self.entries.swapAt(child, parent)
            child = parent
        }
    }

    mutating func popFirst() -> Entry? {
        guard let first = self.entries.first else { return nil }
        let last = self.entries.removeLast()
        guard !self.entries.isEmpty else { return first }
        self.entries[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < self.entries.count, self.entries[left].deadline < self.entries[smallest].deadline {
                smallest = left
            }
            if right < self.entries.count, self.entries[right].deadline < self.entries[smallest].deadline {
                smallest = right
            }
            guard smallest != parent else { break }
            self.entries.swapAt(parent, smallest)
            parent = smallest
        }
        return first
    }
}
