import HearthCore

/// Where one shard's queued changes write, by path, with the log index of each: answers `CommitFeed.waitsBehind`'s
/// question — does an earlier queued change overlap this one in a way that does not commute? — in O(m × depth)
/// for a change of m mutations, instead of a scan of everything queued before it (which made a node that came back
/// with thousands of entries queued behind a snapshot take minutes).
///
/// Per namespace and path it keeps the indexes of the queued changes that write there, bare increments apart (two
/// increments of one counter commute), and under every strict ancestor of a written path the indexes of the changes
/// below it. Changes are added in index order, so each list is ascending and its first element the earliest.
struct QueuedPaths: Sendable {
    private struct Writers {
        var increments: [UInt64] = []
        var others: [UInt64] = []
    }

    private var exact: [String: [Path: Writers]] = [:]
    private var below: [String: [Path: [UInt64]]] = [:]

    /// Adds the change of entry `index` (after every change added so far).
    mutating func add(_ change: ShardChange, at index: UInt64) {
        self.update(change) { $0.append(index) }
    }

    /// Removes the change of entry `index`.
    mutating func remove(_ change: ShardChange, at index: UInt64) {
        self.update(change) { list in
            if let position = list.firstIndex(of: index) { list.remove(at: position) }
        }
    }

    /// Whether a change queued before entry `index` writes a path overlapping one of `change`'s: the same path
    /// (unless both are bare increments there), an ancestor or a descendant.
    func blocks(_ change: ShardChange, at index: UInt64) -> Bool {
        let exact = self.exact[change.namespace] ?? [:]
        let below = self.below[change.namespace] ?? [:]
        func earlier(_ list: [UInt64]?) -> Bool { (list?.first ?? .max) < index }
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

    private mutating func update(_ change: ShardChange, _ edit: (inout [UInt64]) -> Void) {
        for mutation in change.mutations {
            let path = mutation.path
            var writers = self.exact[change.namespace]?[path] ?? Writers()
            if change.increments[path] != nil { edit(&writers.increments) } else { edit(&writers.others) }
            let isEmpty = writers.increments.isEmpty && writers.others.isEmpty
            self.exact[change.namespace, default: [:]][path] = isEmpty ? nil : writers
            for depth in 0..<path.count {
                let ancestor = Path(keys: Array(path.keys.prefix(depth)))
                var list = self.below[change.namespace]?[ancestor] ?? []
                edit(&list)
                self.below[change.namespace, default: [:]][ancestor] = list.isEmpty ? nil : list
            }
        }
    }
}
