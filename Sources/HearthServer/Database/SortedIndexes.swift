/// Entry indexes kept in ascending order, for the commit feed's blocked entries: insertion, removal and "the next
/// one above" by binary search, so walking every blocked entry of a shard in order costs one pass.
struct SortedIndexes: Sendable, Equatable {
    private(set) var values: [UInt64] = []

    var isEmpty: Bool { self.values.isEmpty }

    /// Adds `index` (nothing when present). O(log n), O(1) amortised for the largest.
    mutating func insert(_ index: UInt64) {
        let position = self.lowerBound(index)
        guard position == self.values.count || self.values[position] != index else { return }
        self.values.insert(index, at: position)
    }

    /// Removes `index` if present. O(log n) to find it.
    mutating func remove(_ index: UInt64) {
        let position = self.lowerBound(index)
        guard position < self.values.count, self.values[position] == index else { return }
        self.values.remove(at: position)
    }

    /// The smallest index above `index`, if any. O(log n).
    func first(after index: UInt64) -> UInt64? {
        let position = self.lowerBound(index &+ 1)
        guard index < .max, position < self.values.count else { return nil }
        return self.values[position]
    }

    /// The position of the first value not below `index`.
    private func lowerBound(_ index: UInt64) -> Int {
        var low = 0
        var high = self.values.count
        while low < high {
            let middle = (low + high) / 2
            if self.values[middle] < index { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
