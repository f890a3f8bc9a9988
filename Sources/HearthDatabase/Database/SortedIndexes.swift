/// Entry indexes kept in ascending order, for the commit feed's blocked entries and the writers of each queued path:
/// insertion, removal and "the next one above" by binary search, so walking every index in order costs one pass.
/// Indexes leave mostly from the front (the earliest entry is shown first): the slots before the first live index
/// are reused rather than closed up, so taking the smallest is O(1) amortised instead of a move of all the others.
struct SortedIndexes: Sendable {
    private var storage: [UInt64] = []
    /// Where the live indexes start in `storage`.
    private var head = 0

    var isEmpty: Bool { self.head == self.storage.count }

    /// How many indexes are kept.
    var count: Int { self.storage.count - self.head }

    /// The smallest index.
    var first: UInt64? { self.isEmpty ? nil : self.storage[self.head] }

    /// The indexes, ascending.
    var values: ArraySlice<UInt64> { self.storage[self.head...] }

    /// Adds `index` (nothing when present). O(log n) to find its place; O(1) amortised for a new largest or
    /// smallest.
    mutating func insert(_ index: UInt64) {
        let position = self.lowerBound(index)
        guard position == self.storage.count || self.storage[position] != index else { return }
        if position == self.head && self.head > 0 {
            self.head -= 1
            self.storage[self.head] = index
        } else {
            self.storage.insert(index, at: position)
        }
    }

    /// Removes `index` if present. O(log n) to find it; O(1) amortised for the smallest.
    mutating func remove(_ index: UInt64) {
        let position = self.lowerBound(index)
        guard position < self.storage.count, self.storage[position] == index else { return }
        if position == self.head {
            self.head += 1
            if self.isEmpty {
                self.storage.removeAll(keepingCapacity: true)
                self.head = 0
            } else if self.head >= 1024 && self.head * 2 >= self.storage.count {
                self.storage.removeFirst(self.head)
                self.head = 0
            }
        } else {
            self.storage.remove(at: position)
        }
    }

    /// The smallest index above `index`, if any. O(log n).
    func first(after index: UInt64) -> UInt64? {
        let position = self.lowerBound(index &+ 1)
        guard index < .max, position < self.storage.count else { return nil }
        return self.storage[position]
    }

    /// The position in `storage` of the first live value not below `index`.
    private func lowerBound(_ index: UInt64) -> Int {
        var low = self.head
        var high = self.storage.count
        while low < high {
            let middle = (low + high) / 2
            if self.storage[middle] < index { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

extension SortedIndexes: Equatable {
    static func == (lhs: SortedIndexes, rhs: SortedIndexes) -> Bool { lhs.values == rhs.values }
}
