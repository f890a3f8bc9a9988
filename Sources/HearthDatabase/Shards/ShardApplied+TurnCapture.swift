import HearthCore

/// Taking the subtrees of the entries one turn of the write loop appended once, at the turn's end.
extension ShardApplied {
    /// A shard's tree of one namespace that the turn's entries touched, as the capture meets it (later entries first).
    private struct TouchedTree {
        var shard: Int
        var namespace: String
        /// The tree as it stands at the turn's end, read when the first of its subtrees is taken.
        var root: Node?
        /// The paths of the spine writes met so far in it (later in the turn).
        var spineWrites: [Path] = []
    }

    /// One subtree at the shard depth of a touched tree, named by the tree's place among the turn's touched trees:
    /// hashed without the namespace's string.
    private struct SubtreeKey: Hashable {
        var tree: Int
        var path: Path
    }

    /// Fills in the nodes of the subtrees that `entries` (the entries a turn appended, in log order, from machines
    /// that `defersSubtrees`) touched. Each subtree the turn touched goes, as its shard holds it at the turn's end,
    /// with the last entry that touched it, whose state of it that is; the earlier ones keep it without a node
    /// (superseded, `ShardSubtree.node`), naming that entry (`ShardSubtree.supersededBy`). A subtree that a later
    /// spine write of the turn (an entry without subtrees) wrote above or into goes without a node from every entry
    /// before that write: its state at the turn's end is no entry's before it, and the spine write itself carries
    /// none (the view applies its mutations).
    ///
    /// So a subtree written many times in a turn is shared with the read view once, and the shard, which edited it
    /// in place all turn, copies its path once, at its next write.
    /// - Parameter tree: a shard's tree of a namespace as it stands at the turn's end.
    /// - Complexity: one hash insertion per touched subtree, one node lookup per distinct subtree, and a scan of the
    ///   turn's few touched trees per entry.
    static func captureTurn(_ entries: inout [ShardApplied], tree: (_ shard: Int, _ namespace: String) -> Node) {
        // The subtrees taken so far (by later entries of the turn), with the index of the entry that took each. Sized
        // for a subtree per entry, the common case, so it is not grown again and again as a turn fills it.
        var taken = [SubtreeKey: UInt64](minimumCapacity: entries.count)
        // The trees touched so far: a turn touches a few (a shard's of a namespace), found without a hash.
        var trees: [TouchedTree] = []
        for entry in entries.indices.reversed() {
            let (shard, taker) = (entries[entry].shard, entries[entry].index)
            entries[entry].withChange { change in
                let touched = Self.place(of: shard, change.namespace, in: &trees)
                // Taken out of the change, so it is held once and its subtrees are filled in in place.
                guard var subtrees = change.subtrees.take() else {
                    trees[touched].spineWrites += change.mutations.map(\.path)
                    return
                }
                for index in subtrees.indices {
                    Self.capture(
                        &subtrees[index], by: taker, of: &trees[touched], place: touched, taken: &taken, tree: tree)
                }
                change.subtrees = subtrees
            }
        }
    }

    /// Where the tree of `namespace` in `shard` is among `trees`, added at the end when it is not there yet.
    private static func place(of shard: Int, _ namespace: String, in trees: inout [TouchedTree]) -> Int {
        if let known = trees.firstIndex(where: { $0.shard == shard && $0.namespace == namespace }) { return known }
        trees.append(TouchedTree(shard: shard, namespace: namespace))
        return trees.count - 1
    }

    /// Fills in `subtree` of the entry `taker` of a touched tree (at `place` among the turn's): without a node when a
    /// later spine write of the turn wrote over it or a later entry took it (then naming that entry), else with the
    /// tree's node there at the turn's end, taken now.
    private static func capture(
        _ subtree: inout ShardSubtree, by taker: UInt64, of touched: inout TouchedTree, place: Int,
        taken: inout [SubtreeKey: UInt64], tree: (_ shard: Int, _ namespace: String) -> Node
    ) {
        // A turn rarely writes the spine: then no path is compared.
        if !touched.spineWrites.isEmpty,
            touched.spineWrites.contains(where: { $0.contains(subtree.path) || subtree.path.contains($0) })
        {
            subtree.node = nil
            return
        }
        if let carrier = Self.claim(&taken[SubtreeKey(tree: place, path: subtree.path)], for: taker) {
            subtree.node = nil
            subtree.supersededBy = (touched.shard, carrier)
            return
        }
        let root = touched.root ?? tree(touched.shard, touched.namespace)
        touched.root = root
        subtree.node = root.node(at: subtree.path)
    }

    /// The entry that took a subtree already (`slot` is its place in the turn's taken subtrees), or nil when none did
    /// and `entry` takes it now: one hash of the subtree's key, as `claim(&taken[key], for: entry)`.
    private static func claim(_ slot: inout UInt64?, for entry: UInt64) -> UInt64? {
        guard let taker = slot else {
            slot = entry
            return nil
        }
        return taker
    }

    /// Runs `body` on the change the entry makes to the data (a write's, or a committed transaction part's); does
    /// nothing for any other entry.
    private mutating func withChange(_ body: (inout ShardChange) -> Void) {
        // Moved out of the entry while it changes, so the change is held once and edited in place (copied out of the
        // entry, every array and dictionary of it was retained, then the old one released).
        var effect = Effect.bookkeeping(forgotten: [])
        swap(&effect, &self.effect)
        switch consume effect {
        case .write(var change):
            body(&change)
            self.effect = .write(change)
        case .finished(let transaction, let decision, var part?):
            body(&part.change)
            self.effect = .finished(transaction, decision: decision, committed: part)
        case let other:
            self.effect = other
        }
    }
}
