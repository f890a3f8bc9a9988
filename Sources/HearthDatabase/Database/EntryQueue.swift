/// One shard's entries that arrived at the commit feed and are not shown yet, addressed by entry index.
///
/// Entries are appended with consecutive indexes and leave mostly from the front, sometimes from the middle (an
/// entry shown before an earlier one it does not overlap). An entry that leaves empties its slot; the slots before
/// the first live entry are dropped in one move once they are the larger half. So appending, finding an entry by its
/// index and removing one are O(1) amortised — removing from a plain array's front moved every entry behind it,
/// which made a node that restarted with thousands of entries queued spend seconds in `memmove`.
struct EntryQueue {
    private var slots: [ShardApplied?] = []
    /// The entry index of `slots[0]`.
    private var base: UInt64 = 0
    /// The first slot that may be live; every slot before it is empty.
    private var head = 0
    /// How many entries are queued.
    private(set) var count = 0

    var isEmpty: Bool { self.count == 0 }

    /// The queued entry with the lowest index.
    var first: ShardApplied? { self.isEmpty ? nil : self.slots[self.head] }

    /// Appends `applied`, whose index must follow the last appended one's (any index when the queue is empty).
    mutating func append(_ applied: ShardApplied) {
        if self.isEmpty {
            self.slots = [applied]
            self.base = applied.index
            self.head = 0
        } else {
            precondition(
                applied.index == self.base + UInt64(self.slots.count),
                "entry \(applied.index) queued after entry \(self.base + UInt64(self.slots.count) - 1)")
            self.slots.append(applied)
        }
        self.count += 1
    }

    /// The queued entry with index `index`, or nil once it left (or before it arrived).
    subscript(index: UInt64) -> ShardApplied? {
        guard let slot = self.slot(of: index) else { return nil }
        return self.slots[slot]
    }

    /// Removes the entry with index `index`, if queued.
    mutating func remove(_ index: UInt64) {
        guard let slot = self.slot(of: index), self.slots[slot] != nil else { return }
        self.slots[slot] = nil
        self.count -= 1
        guard !self.isEmpty else {
            self.removeAll()
            return
        }
        while self.slots[self.head] == nil { self.head += 1 }
        if self.head >= 1024 && self.head * 2 >= self.slots.count {
            self.slots.removeFirst(self.head)
            self.base += UInt64(self.head)
            self.head = 0
        }
    }

    mutating func removeAll() {
        self.slots = []
        self.head = 0
        self.count = 0
    }

    /// The queued entries, in index order.
    var entries: [ShardApplied] { self.slots[self.head...].compactMap { $0 } }

    private func slot(of index: UInt64) -> Int? {
        guard index >= self.base else { return nil }
        let slot = Int(index - self.base)
        return slot >= self.head && slot < self.slots.count ? slot : nil
    }
}
