import HearthCore

/// Where one shard's queued changes write, by path, with the log index of each: answers `CommitFeed.waitsBehind`'s
/// question — does an earlier queued change overlap this one in a way that does not commute? — in O(m × depth)
/// for a change of m mutations, instead of a scan of everything queued before it (which made a node that came back
/// with thousands of entries queued behind a snapshot take minutes).
///
/// Per namespace and path it keeps the indexes of the queued changes that write there, bare increments apart (two
/// increments of one counter commute), and under every strict ancestor of a written path the indexes of the changes
/// below it. Each list is a `SortedIndexes`, so its first element is the earliest.
struct QueuedPaths: Sendable {
    private struct Writers {
        var increments = SortedIndexes()
        var others = SortedIndexes()

        var isEmpty: Bool { self.increments.isEmpty && self.others.isEmpty }

        mutating func edit(increments: Bool, _ edit: (inout SortedIndexes) -> Void) {
            if increments { edit(&self.increments) } else { edit(&self.others) }
        }
    }

    private var exact: [String: [Path: Writers]] = [:]
    private var below: [String: [Path: SortedIndexes]] = [:]

    /// Adds the change of entry `index` (after every change added so far).
    mutating func add(_ change: ShardChange, at index: UInt64) {
        self.update(change) { $0.insert(index) }
    }

    /// Removes the change of entry `index`.
    mutating func remove(_ change: ShardChange, at index: UInt64) {
        self.update(change) { $0.remove(index) }
    }

    /// Whether a change queued before entry `index` writes a path overlapping one of `change`'s: the same path
    /// (unless both are bare increments there), an ancestor or a descendant.
    func blocks(_ change: ShardChange, at index: UInt64) -> Bool {
        let exact = self.exact[change.namespace] ?? [:]
        let below = self.below[change.namespace] ?? [:]
        func earlier(_ list: SortedIndexes?) -> Bool { (list?.first ?? .max) < index }
        for mutation in change.mutations {
            let path = mutation.path
            if earlier(below[path]) { return true }
            for depth in 0..<path.count {
                let ancestor = exact[Path(keys: Array(path.keys.prefix(depth)))]
                if earlier(ancestor?.others) || earlier(ancestor?.increments) { return true }
            }
            let here = exact[path]
            if earlier(here?.others) || (change.increments[path] == nil && earlier(here?.increments)) { return true }
        }
        return false
    }

    /// Applies `edit` to every list `change` is in, each in place: a list copied out, edited and stored back was
    /// copied whole on every edit (the list under a hot post holds every change queued below it).
    private mutating func update(_ change: ShardChange, _ edit: (inout SortedIndexes) -> Void) {
        let namespace = change.namespace
        for mutation in change.mutations {
            let path = mutation.path
            let isIncrement = change.increments[path] != nil
            self.exact[namespace, default: [:]][path, default: Writers()].edit(increments: isIncrement, edit)
            if self.exact[namespace]?[path]?.isEmpty ?? false { self.exact[namespace]?[path] = nil }
            for depth in 0..<path.count {
                let ancestor = Path(keys: Array(path.keys.prefix(depth)))
                edit(&self.below[namespace, default: [:]][ancestor, default: SortedIndexes()])
                if self.below[namespace]?[ancestor]?.isEmpty ?? false { self.below[namespace]?[ancestor] = nil }
            }
        }
    }
}
