import HearthCore
import HearthWire

/// A spine node's priority is global, like its existence: the node exists while any shard holds part of it, and
/// every shard holding part of it keeps a copy of its priority (see docs/architecture.md, "Shards and the spine").
///
/// A shard that gains the first child of a spine node cannot know on its own whether the node exists elsewhere
/// with a priority. So each shard remembers which spine nodes *may* carry one (`spinePriorities`: every spine
/// priority is set by a write over every shard, so every shard learns it; a node that vanished keeps its mark until
/// the next such write), and a write that would create one of those nodes here runs over every shard instead,
/// which reads the node's priority everywhere and copies it into this shard (`TwoPhaseCommit`).
extension ShardStateMachine {
    /// True when a mutation that adds data would create, in this shard, a spine node that may carry a priority in
    /// other shards, unless the write itself defines that node (a set at or above it) or its priority.
    /// - Parameter tree: the write's namespace's tree as this machine holds it (looked up once by the caller).
    func lacksSpinePriority(_ write: borrowing ShardWrite, in tree: borrowing Node) -> Bool {
        guard let marked = self.spinePriorities[write.namespace], !marked.isEmpty else { return false }
        for mutation in write.mutations where mutation.addsData() {
            for depth in 0..<min(self.spineDepth, mutation.path.count) {
                let ancestor = Path(keys: Array(mutation.path.keys.prefix(depth)))
                guard marked.contains(ancestor), tree.node(at: ancestor).isEmpty else { continue }
                let isDefined = write.mutations.contains { other in
                    switch other {
                    case .set(let path, _): path.contains(ancestor)
                    case .setPriority(let path, _): path == ancestor
                    }
                }
                if !isDefined { return true }
            }
        }
        return false
    }

    /// Keeps `spinePriorities` up to date with a resolved mutation this shard applies.
    mutating func notePriority(_ mutation: borrowing ResolvedMutation, namespace: String) {
        // Matched by `switch`, on the mutation where it is held: a `guard case` consumes (copies) what it matches.
        switch mutation {
        case .set: return
        case .setPriority(let path, let priority):
            guard path.count < self.spineDepth else { return }
            if priority != nil {
                self.spinePriorities[namespace, default: []].insert(copy path)
            } else {
                self.spinePriorities[namespace]?.remove(path)
                if self.spinePriorities[namespace]?.isEmpty == true { self.spinePriorities[namespace] = nil }
            }
        }
    }

    /// The spine nodes of `value` (set at `path`) that carry a priority and have children: the ones every shard
    /// must learn about, whether or not it holds part of them.
    /// - Complexity: one pass over the spine levels of `value`.
    static func prioritisedSpineNodes(in value: Node, at path: Path, spineDepth: Int) -> [(Path, Priority)] {
        guard path.count < spineDepth, !value.isLeaf, !value.isEmpty else { return [] }
        var found: [(Path, Priority)] = value.priority.map { [(path, $0)] } ?? []
        guard path.count + 1 < spineDepth else { return found }
        for (key, child) in value.children {
            found += Self.prioritisedSpineNodes(in: child, at: path.appending(key), spineDepth: spineDepth)
        }
        return found
    }
}
