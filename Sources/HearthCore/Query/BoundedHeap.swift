/// Keeps the best `capacity` elements of a stream without sorting the whole stream: a limited query's selection.
///
/// A binary heap whose root is the worst element kept, so each new element is compared with the root and either
/// dropped or swapped in. Selecting `k` of `n` elements costs O(n log k) time and O(k) space.
struct BoundedHeap<Element> {
    private var elements: [Element] = []
    let capacity: Int
    /// True when the first element should be dropped before the second.
    private let isWorse: (Element, Element) -> Bool

    init(capacity: Int, isWorse: @escaping (Element, Element) -> Bool) {
        precondition(capacity >= 1, "bounded heap in state capacity=\(capacity) must keep at least one element")
        self.capacity = capacity
        self.isWorse = isWorse
    }

    var count: Int { self.elements.count }

    /// Offers an element; it is kept when the heap has room or when it beats the worst element kept.
    /// - Complexity: O(log k).
    mutating func insert(_ element: Element) {
        if self.elements.count < self.capacity {
            self.elements.append(element)
            self.siftUp(self.elements.count - 1)
        } else if self.isWorse(self.elements[0], element) {
            self.elements[0] = element
            self.siftDown(0)
        }
    }

    /// The kept elements, best first.
    /// - Complexity: O(k log k).
    func sortedBestFirst() -> [Element] {
        self.elements.sorted { self.isWorse($1, $0) }
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard self.isWorse(self.elements[child], self.elements[parent]) else { return }
            self.elements.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        let count = self.elements.count
        while true {
            let left = 2 * parent + 1
            guard left < count else { return }
            var worst = left
            let right = left + 1
            if right < count, self.isWorse(self.elements[right], self.elements[left]) { worst = right }
            guard self.isWorse(self.elements[worst], self.elements[parent]) else { return }
            self.elements.swapAt(worst, parent)
            parent = worst
        }
    }
}
