public import HearthCore
import HearthSystem
import Synchronization

/// The maintained orders of the locations whose queries use a declared index (`.indexOn`): built on a location's
/// first indexed query, then kept up by the read view as it applies each committed change (before listeners hear
/// of it), so that a query — and a limited listener re-evaluating its window on each change — reads O(log n + k)
/// instead of scanning the list.
///
/// An index is used only for the exact version of the node it reflects (`Node.isIdentical`): a query never reads an
/// index that is behind or ahead of the data it was given. A change that replaces the location from above drops its
/// index (the next query builds it again); so does a change the index missed.
public final class QueryIndexes: Sendable {
    struct Location: Hashable {
        let namespace: String
        let path: Path
        let index: QueryIndex
    }

    private struct Kept {
        var source: Node
        var tree: IndexTree
        var lastUse: UInt64
    }

    private struct State {
        /// By namespace, so a change looks only at its own namespace's indexes.
        var kept: [String: [Location: Kept]] = [:]
        var count = 0
        var clock: UInt64 = 0
        var builds: UInt64 = 0

        subscript(location: Location) -> Kept? {
            get { self.kept[location.namespace]?[location] }
            set {
                let old = self.kept[location.namespace]?[location]
                self.count += (newValue == nil ? 0 : 1) - (old == nil ? 0 : 1)
                self.kept[location.namespace, default: [:]][location] = newValue
                if self.kept[location.namespace]?.isEmpty ?? false { self.kept[location.namespace] = nil }
            }
        }
    }

    /// The most indexes kept; past it the least recently used is dropped.
    let capacity: Int
    private let state = Lock(State())
    /// Whether any index is kept: set under the lock whenever `state.count` changes, read without it by `touched`,
    /// so that the view's every change does not take this lock just to find no index (as on most nodes). A change
    /// that reads it a moment before a query keeps a new index misses that index, as one that took the lock before
    /// it would: the index holds the node it was built from, and no query reads it for another (`isIdentical`).
    private let hasKept = Atomic(false)

    init(capacity: Int = 4_096) {
        self.capacity = capacity
    }

    /// How many locations have an index now.
    package var count: Int { self.state.withLock { $0.count } }

    /// How many indexes were built from scratch (a location's first indexed query, or one after its index was
    /// dropped).
    package var builds: UInt64 { self.state.withLock { $0.builds } }

    /// The index of `node` (the data at `path`) under `index`: kept, or built now and kept.
    func tree(namespace: String, path: Path, index: QueryIndex, node: Node) -> IndexTree {
        let location = Location(namespace: namespace, path: path, index: index)
        let found = self.state.withLock { state -> IndexTree? in
            state.clock += 1
            guard var kept = state[location], kept.source.isIdentical(to: node) else { return nil }
            kept.lastUse = state.clock
            state[location] = kept
            return kept.tree
        }
        if let found { return found }
        let tree = IndexTree(node, index: index)
        self.state.withLock { state in
            if state[location] == nil, state.count >= self.capacity,
                let oldest = state.kept.values.flatMap({ $0 }).min(by: { $0.value.lastUse < $1.value.lastUse })?.key
            {
                state[oldest] = nil
            }
            state[location] = Kept(source: node, tree: tree, lastUse: state.clock)
            state.builds += 1
            self.hasKept.store(true, ordering: .relaxed)
        }
        return tree
    }

    /// Whether any index is kept (a relaxed read: `touched` finds none when this is false).
    var keepsAny: Bool { self.hasKept.load(ordering: .relaxed) }

    /// The indexed locations of `namespace` that writes at `paths` touch, with their nodes in `root` before the
    /// writes: what `advance` needs after them. Called by the read view under its lock, before it applies them.
    func touched(_ namespace: String, paths: some Collection<Path>, root: Node) -> [(Location, Node)] {
        guard self.hasKept.load(ordering: .relaxed) else { return [] }
        return self.state.withLock { state in
            guard let kept = state.kept[namespace] else { return [] }
            return kept.keys.filter { location in
                paths.contains { $0.contains(location.path) || location.path.contains($0) }
            }.map { ($0, root.node(at: $0.path)) }
        }
    }

    /// Brings the `touched` indexes up to `root`, the namespace after `mutations`: the children written below a
    /// location are re-placed in its order; a location replaced from above, or an index that was not current
    /// before the writes, is dropped (the next query builds it again).
    func advance(_ touched: [(Location, Node)], root: Node, mutations: [ResolvedMutation]) {
        guard !touched.isEmpty else { return }
        self.state.withLock { state in
            for (location, old) in touched {
                guard let kept = state[location] else { continue }
                let path = location.path
                let new = root.node(at: path)
                let replaced = mutations.contains { $0.path.count <= path.count && $0.path.contains(path) }
                guard !replaced, kept.source.isIdentical(to: old), !new.isLeaf else {
                    state[location] = nil
                    continue
                }
                let keys = mutations.compactMap { mutation -> Key? in
                    guard mutation.path.count > path.count, path.contains(mutation.path) else { return nil }
                    return mutation.path.keys[path.count]
                }
                state[location] = Kept(
                    source: new, tree: kept.tree.updating(keys, old: old, new: new), lastUse: kept.lastUse)
            }
            self.hasKept.store(state.count > 0, ordering: .relaxed)
        }
    }

    /// Drops every index (the view was replaced wholesale).
    func dropAll() {
        self.state.withLock { state in
            state.kept = [:]
            state.count = 0
            self.hasKept.store(false, ordering: .relaxed)
        }
    }

    /// Drops every index of `namespace` (its rules changed, or its data was replaced wholesale).
    package func drop(namespace: String) {
        self.state.withLock { state in
            state.count -= state.kept[namespace]?.count ?? 0
            state.kept[namespace] = nil
            self.hasKept.store(state.count > 0, ordering: .relaxed)
        }
    }
}

extension QueryIndexes {
    /// The result of `query` over `node`, the data at `path` of `namespace`: read from the location's maintained
    /// order when the rules declare the query's index (`isDeclared`) and the query orders by a child or by value,
    /// otherwise by scanning the children (the same result either way).
    public func evaluate(_ query: QuerySpec, namespace: String, path: Path, node: Node, isDeclared: Bool) -> Node {
        guard isDeclared, Self.isIndexable(query), node.childCount > 0 else { return query.evaluate(node) }
        let tree = self.tree(namespace: namespace, path: path, index: query.index, node: node)
        return query.evaluate(node, index: tree)
    }

    /// Whether a maintained order can answer `query`: it orders by a child or by value and does not load
    /// everything.
    package static func isIndexable(_ query: QuerySpec) -> Bool {
        guard !query.loadsAllData else { return false }
        switch query.index {
        case .value, .child: return true
        case .key, .priority: return false
        }
    }
}
