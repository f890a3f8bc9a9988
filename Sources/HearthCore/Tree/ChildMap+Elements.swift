/// Operations on one sorted run of elements: a small map's whole storage, or one B+tree leaf.
extension ChildMap {
    /// The first position in `elements` whose key is not less than `key`. O(log count).
    static func lowerBound(_ key: Key, in elements: [Entry]) -> Int {
        elements.withUnsafeBufferPointer { Self.lowerBound(key, in: $0) }
    }

    /// The first position in `elements` (a small map's array or a tree leaf's elements, read in place) whose key is
    /// not less than `key`. O(log count).
    /// The key's bytes and integer value are read once for the whole search (`Key.Probe`).
    static func lowerBound(_ key: Key, in elements: UnsafeBufferPointer<Entry>) -> Int {
        key.withProbe { probe in
            var low = 0
            var high = elements.count
            while low < high {
                let middle = (low + high) / 2
                let element = elements[middle].key
                if probe?.follows(element, probing: key) ?? (element < key) {
                    low = middle + 1
                } else {
                    high = middle
                }
            }
            return low
        }
    }

    /// The node stored under `key` in `elements`, or `nil`. O(log count).
    static func node(for key: Key, in elements: [Entry]) -> Node? {
        let index = Self.lowerBound(key, in: elements)
        guard index < elements.count, elements[index].key == key else { return nil }
        return elements[index].node
    }

    /// Sets `key` to `node` in `elements`, keeping them sorted, and returns the node it replaces. O(count).
    static func insert(_ key: Key, _ node: Node, into elements: inout [Entry]) -> Node? {
        let index = Self.lowerBound(key, in: elements)
        if index < elements.count, elements[index].key == key {
            let previous = elements[index].node
            elements[index].node = node
            return previous
        }
        elements.insert(Entry(key: key, node: node), at: index)
        return nil
    }

    /// Removes `key` from `elements` and returns its node, or `nil` when it is absent. O(count).
    static func remove(_ key: Key, from elements: inout [Entry]) -> Node? {
        let index = Self.lowerBound(key, in: elements)
        guard index < elements.count, elements[index].key == key else { return nil }
        return elements.remove(at: index).node
    }
}
