import HearthCore

/// Taking the subtrees of the entries one turn of the write loop appended once, at the turn's end.
extension ShardApplied {
    /// A shard's tree of one namespace.
    private struct TreeKey: Hashable {
        var shard: Int
        var namespace: String
    }

    /// One subtree at the shard depth of a shard's tree.
    private struct SubtreeKey: Hashable {
        var tree: TreeKey
        var path: Path
    }

    /// Fills in the nodes of the subtrees that `entries` (the entries a turn appended, in log order, from machines
    /// that `defersSubtrees`) touched. Each subtree the turn touched goes, as its shard holds it at the turn's end,
    /// with the last entry that touched it, whose state of it that is; the earlier ones keep it without a node
    /// (superseded, `ShardSubtree.node`). A subtree that a later spine write of the turn (an entry without subtrees)
    /// wrote above or into goes without a node from every entry before that write: its state at the turn's end is
    /// no entry's before it, and the spine write itself carries none (the view applies its mutations).
    ///
    /// So a subtree written many times in a turn is shared with the read view once, and the shard, which edited it
    /// in place all turn, copies its path once, at its next write.
    /// - Parameter tree: a shard's tree of a namespace as it stands at the turn's end.
    /// - Complexity: one hash insertion per touched subtree and one node lookup per distinct subtree.
    static func captureTurn(_ entries: inout [ShardApplied], tree: (_ shard: Int, _ namespace: String) -> Node) {
        // Sized for a subtree per entry, the common case, so the set is not grown again and again as a turn fills it.
        var taken = Set<SubtreeKey>(minimumCapacity: entries.count)
        /// The paths of the spine writes met so far (later in the turn), by tree.
        var spineWrites: [TreeKey: [Path]] = [:]
        /// The roots read so far: a turn touches a few trees (a shard's of a namespace), looked up without a hash.
        var trees: [(key: TreeKey, root: Node)] = []
        for entry in entries.indices.reversed() {
            let shard = entries[entry].shard
            entries[entry].withChange { change in
                let key = TreeKey(shard: shard, namespace: change.namespace)
                // Taken out of the change, so it is held once and its subtrees are filled in in place.
                guard var subtrees = change.subtrees.take() else {
                    spineWrites[key, default: []] += change.mutations.map(\.path)
                    return
                }
                // A turn rarely writes the spine: then no lookup of its writes is made.
                let spinePaths = spineWrites.isEmpty ? nil : spineWrites[key]
                for index in subtrees.indices {
                    let path = subtrees[index].path
                    let isOverwritten = spinePaths?.contains { written in
                        written.contains(path) || path.contains(written)
                    }
                    guard isOverwritten != true, taken.insert(SubtreeKey(tree: key, path: path)).inserted else {
                        subtrees[index].node = nil
                        continue
                    }
                    let root: Node
                    if let known = trees.first(where: { $0.key == key }) {
                        root = known.root
                    } else {
                        root = tree(shard, change.namespace)
                        trees.append((key, root))
                    }
                    subtrees[index].node = root.node(at: path)
                }
                change.subtrees = subtrees
            }
        }
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
