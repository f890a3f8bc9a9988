/// A min-heap of items by time, ties broken by insertion order, so a simulation pops events deterministically.
public struct SimulationQueue<Item: Sendable>: Sendable {
    private struct Entry: Sendable {
        var time: UInt64
        var sequence: UInt64
        var item: Item

        func precedes(_ other: Entry) -> Bool {
            (self.time, self.sequence) < (other.time, other.sequence)
        }
    }

    private var heap: [Entry] = []
    private var nextSequence: UInt64 = 0

    public init() {}

    public var count: Int { self.heap.count }
    public var isEmpty: Bool { self.heap.isEmpty }

    /// The earliest item (the first inserted among equal times).
    public var first: Item? { self.heap.first?.item }

    /// The time of the earliest item.
    public var firstTime: UInt64? { self.heap.first?.time }

    public mutating func insert(_ item: Item, at time: UInt64) {
        self.heap.append(Entry(time: time, sequence: self.nextSequence, item: item))
        self.nextSequence += 1
        self.siftUp(self.heap.count - 1)
    }

    /// Removes and returns the earliest item; the queue must not be empty.
    public mutating func removeFirst() -> Item {
        precondition(!self.heap.isEmpty, "removeFirst() on an empty SimulationQueue")
        let first = self.heap[0].item
        let last = self.heap.removeLast()
        if !self.heap.isEmpty {
            self.heap[0] = last
            self.siftDown(0)
        }
        return first
    }

    /// Removes every item matching `shouldRemove`, keeping the others' order.
    public mutating func removeAll(where shouldRemove: (Item) -> Bool) {
        let kept = self.heap.filter { !shouldRemove($0.item) }.sorted { $0.precedes($1) }
        self.heap = kept
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard self.heap[child].precedes(self.heap[parent]) else { return }
            self.heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < self.heap.count, self.heap[left].precedes(self.heap[smallest]) { smallest = left }
            if right < self.heap.count, self.heap[right].precedes(self.heap[smallest]) { smallest = right }
            guard smallest != parent else { return }
            self.heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
