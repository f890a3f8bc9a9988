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
    fileprivate struct Level: Sendable {
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
        let increments = change.increments
        for mutation in change.mutations {
            self.namespaces[change.namespace, default: Level()].insert(
                index, keys: mutation.path.keys[...], isIncrement: Self.isIncrement(mutation, in: increments))
        }
    }

    /// Removes the change of entry `index`; a change that was never added (or is gone) leaves everything as it is.
    mutating func remove(_ change: ShardChange, at index: UInt64) {
        let increments = change.increments
        for mutation in change.mutations {
            let isEmpty = self.namespaces[change.namespace]?.remove(
                index, keys: mutation.path.keys[...], isIncrement: Self.isIncrement(mutation, in: increments))
            if isEmpty == true { self.namespaces[change.namespace] = nil }
        }
    }

    /// Whether `mutation` is one of the change's bare increments (`increments`, read out of the change once).
    private static func isIncrement(_ mutation: ResolvedMutation, in increments: [Path: LeafValue]) -> Bool {
        !increments.isEmpty && increments[mutation.path] != nil
    }

    /// Whether a change queued before entry `index` writes a path overlapping one of `change`'s: the same path
    /// (unless both are bare increments there), an ancestor or a descendant.
    func blocks(_ change: ShardChange, at index: UInt64) -> Bool {
        guard let top = self.namespaces[change.namespace] else { return false }
        let increments = change.increments
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
            if increments[mutation.path] == nil && earlier(level.increments) { return true }
        }
        return false
    }
}

extension QueuedPaths.Level {
    /// Adds `index` to the lists of the path `keys` below this level: `below` on the way down, the writers' list at
    /// the end. Each level is edited in place (a list copied out, edited and stored back was copied whole on every
    /// edit: the list under a hot post holds every change queued below it), with one dictionary lookup per level.
    mutating func insert(_ index: UInt64, keys: ArraySlice<Key>, isIncrement: Bool) {
        guard let key = keys.first else {
            if isIncrement { self.increments.insert(index) } else { self.others.insert(index) }
            return
        }
        self.below.insert(index)
        self.children[key, default: Self()].insert(index, keys: keys.dropFirst(), isIncrement: isIncrement)
    }

    /// Removes `index` from the lists of the path `keys` below this level, dropping levels left empty; walks only
    /// the levels that exist. Returns whether this level is left empty.
    mutating func remove(_ index: UInt64, keys: ArraySlice<Key>, isIncrement: Bool) -> Bool {
        guard let key = keys.first else {
            if isIncrement { self.increments.remove(index) } else { self.others.remove(index) }
            return self.isEmpty
        }
        self.below.remove(index)
        if self.children[key]?.remove(index, keys: keys.dropFirst(), isIncrement: isIncrement) == true {
            self.children[key] = nil
        }
        return self.isEmpty
    }
}
