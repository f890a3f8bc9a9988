package import HearthCore

/// What the server has told this client: Firebase's server caches, kept once for the whole tree.
///
/// Unfiltered listens feed `tree`, one `KnownTree` for every location: a location is complete once its listen is
/// answered or a push overwrote it. A filtered (tagged) listen receives only its query's window, which says
/// nothing about the children outside it, so each window is kept apart in `windows` and read only by the views it
/// can answer (see `QueryCoverage`).
package struct ServerCache: Sendable {
    package var tree = KnownTree.unknown
    package var windows: [ViewKey: QueryWindow] = [:]

    package init() {}

    /// The data at `path` for a view with `query`, and whether it answers the query wholly (see `SyncEngine+Views`).
    func base(at path: Path, query: QuerySpec) -> (known: KnownTree, answersQuery: Bool) {
        if self.tree.isComplete(at: path) {
            return (.complete(self.tree.node.node(at: path)), true)
        }
        var known = self.tree.subtree(at: path)
        for (key, window) in self.windows where key.path == path && window.isComplete {
            guard QueryCoverage.answers(query, from: key.query) else { continue }
            var answered = KnownTree.unknown
            for (child, node) in window.node.children {
                answered.set(node, at: Path(keys: [child]))
            }
            return (answered, true)
        }
        for (key, window) in self.windows where key.path == path {
            for (child, node) in window.node.children where !known.isComplete(at: Path(keys: [child])) {
                known.set(node, at: Path(keys: [child]))
            }
        }
        return (known, false)
    }
}

/// The server's answer to one filtered listen: its window of children, as last pushed.
package struct QueryWindow: Sendable, Equatable {
    package var node: Node
    /// True once the listen was answered: `node` then holds the whole window.
    package var isComplete: Bool

    package init(node: Node, isComplete: Bool) {
        self.node = node
        self.isComplete = isComplete
    }
}
