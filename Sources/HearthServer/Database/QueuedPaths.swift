import HearthCore

/// Where one shard's queued changes write, by path, with the log index of each: answers `CommitFeed.waitsBehind`'s
/// question — does an earlier queued change overlap this one in a way that does not commute? — in O(m × depth)
/// for a change of m mutations, instead of a scan of everything queued before it (which made a node that came back
/// with thousands of entries queued behind a snapshot take minutes).
///
/// Per namespace it keeps a trie of the written paths, one level per key: at each level, the indexes of the queued
/// changes that write exactly there (bare increments apart: two increments of one counter commute) and of those that
/// write strictly below it. A question walks each of the change's paths once, hashing one key per level (the
/// dictionaries keyed by whole paths this replaced hashed every ancestor's keys again, on every star). Each list is a
/// `SortedIndexes`, so its first element is the earliest.
struct QueuedPaths: Sendable {
    private struct Level: Sendable {
        var increments = SortedIndexes()
        var others = SortedIndexes()
        var below = SortedIndexes()
        var children: [Key: Level] = [:]

        /// Nothing is queued here or below (`below` holds every change under a child).
        var isEmpty: Bool { self.increments.isEmpty && self.others.isEmpty && self.below.isEmpty }
    }

    private var namespaces: [String: Level] = [:]

    /// Adds the change of entry `index`.
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
        guard let top = self.namespaces[change.namespace] else { return false }
        func earlier(_ list: SortedIndexes) -> Bool { (list.first ?? .max) < index }
        for mutation in change.mutations {
            var level = top
            var reached = true
            for key in mutation.path.keys {
                if earlier(level.others) || earlier(level.increments) { return true }
                guard let child = level.children[key] else {
                    reached = false
                    break
                }
                level = child
            }
            guard reached else { continue }
            if earlier(level.below) || earlier(level.others) { return true }
            if change.increments[mutation.path] == nil && earlier(level.increments) { return true }
        }
        return false
    }

    /// Applies `edit` to every list `change` is in, each in place: a list copied out, edited and stored back was
    /// copied whole on every edit (the list under a hot post holds every change queued below it).
    private mutating func update(_ change: ShardChange, _ edit: (inout SortedIndexes) -> Void) {
        for mutation in change.mutations {
            let isIncrement = change.increments[mutation.path] != nil
            Self.update(
                &self.namespaces[change.namespace, default: Level()], keys: mutation.path.keys[...],
                isIncrement: isIncrement, edit)
            if self.namespaces[change.namespace]?.isEmpty ?? false { self.namespaces[change.namespace] = nil }
        }
    }

    /// Edits the lists of the path `keys` below `level`: `below` on the way down, the writers' list at the end;
    /// levels left empty are dropped.
    private static func update(
        _ level: inout Level, keys: ArraySlice<Key>, isIncrement: Bool, _ edit: (inout SortedIndexes) -> Void
    ) {
        guard let key = keys.first else {
            if isIncrement { edit(&level.increments) } else { edit(&level.others) }
            return
        }
        edit(&level.below)
        Self.update(&level.children[key, default: Level()], keys: keys.dropFirst(), isIncrement: isIncrement, edit)
        if level.children[key]?.isEmpty ?? false { level.children[key] = nil }
    }
}
