import HearthCore

/// Every active listener of one node, indexed by namespace and path for fast fan-out.
///
/// A trie keyed by path: a change at `P` reaches the listeners on the way down to `P` (ancestors, which see a
/// change inside them) and every listener in the subtree under `P` (descendants, whose value may be replaced).
/// Listeners that hear changes alike (`GroupedChangeListener`) are kept in one `ListenerGroup` per path and kind, which
/// stands for all of them in what a change reaches. Value type: it lives inside the read view's lock and is mutated
/// only there.
struct ListenRegistry {
    fileprivate final class TrieNode {
        var listeners: [ObjectIdentifier: any ChangeListener] = [:]
        var groups: [String: any ListenerGroup] = [:]
        var children: [Key: TrieNode] = [:]
        var isEmpty: Bool { self.listeners.isEmpty && self.groups.isEmpty && self.children.isEmpty }
    }

    private var roots: [String: TrieNode] = [:]
    private(set) var count = 0

    /// Adds a listener whose starting root includes every change up to `sequence`.
    mutating func add(_ listener: any ChangeListener, after sequence: UInt64) {
        var node = self.roots[listener.namespace] ?? TrieNode()
        self.roots[listener.namespace] = node
        for key in listener.path.keys {
            let next = node.children[key] ?? TrieNode()
            node.children[key] = next
            node = next
        }
        if let grouped = listener as? any GroupedChangeListener, let kind = grouped.groupKind {
            let group = node.groups[kind] ?? grouped.makeGroup()
            node.groups[kind] = group
            if group.add(grouped, after: sequence) { self.count += 1 }
        } else if node.listeners.updateValue(listener, forKey: ObjectIdentifier(listener)) == nil {
            self.count += 1
        }
    }

    mutating func remove(_ listener: any ChangeListener) {
        guard let root = self.roots[listener.namespace] else { return }
        var trail: [(TrieNode, Key)] = []
        var node = root
        for key in listener.path.keys {
            guard let next = node.children[key] else { return }
            trail.append((node, key))
            node = next
        }
        if let grouped = listener as? any GroupedChangeListener, let kind = grouped.groupKind {
            guard let group = node.groups[kind], group.remove(grouped) else { return }
            if group.isEmpty { node.groups[kind] = nil }
            self.count -= 1
        } else if node.listeners.removeValue(forKey: ObjectIdentifier(listener)) != nil {
            self.count -= 1
        }
        for (parent, key) in trail.reversed() {
            guard let child = parent.children[key], child.isEmpty else { break }
            parent.children[key] = nil
        }
        if root.isEmpty { self.roots[listener.namespace] = nil }
    }

    /// The listeners a change to any of `paths` may concern, each once.
    func listeners(namespace: String, touching paths: some Sequence<Path>) -> [any ChangeListener] {
        self.namespace(namespace).listeners(touching: paths)
    }

    /// One namespace's listeners, looked up once for a run of changes to it: the read view applies a batch's
    /// changes namespace by namespace, and hashed the namespace for every change.
    func namespace(_ namespace: String) -> Namespace {
        Namespace(root: self.roots[namespace])
    }

    /// The listeners of one namespace (`namespace(_:)`), as they are when it was looked up.
    struct Namespace {
        fileprivate let root: TrieNode?

        /// Whether anyone listens in the namespace (`listeners(touching:)` finds no one when this is false).
        var hasListeners: Bool { self.root != nil }

        /// The listeners a change to any of `paths` may concern, each once.
        func listeners(touching paths: some Sequence<Path>) -> [any ChangeListener] {
            guard let root = self.root else { return [] }
            var found: [ObjectIdentifier: any ChangeListener] = [:]
            for path in paths {
                var node = root
                ListenRegistry.collect(node, into: &found)
                var reached = true
                for key in path.keys {
                    guard let next = node.children[key] else {
                        reached = false
                        break
                    }
                    node = next
                    ListenRegistry.collect(node, into: &found)
                }
                if reached { ListenRegistry.collectDescendants(of: node, into: &found) }
            }
            return Array(found.values)
        }
    }

    private static func collectDescendants(of node: TrieNode, into found: inout [ObjectIdentifier: any ChangeListener])
    {
        for child in node.children.values {
            Self.collect(child, into: &found)
            Self.collectDescendants(of: child, into: &found)
        }
    }

    /// Adds the listeners and groups kept at `node` itself.
    private static func collect(_ node: TrieNode, into found: inout [ObjectIdentifier: any ChangeListener]) {
        found.merge(node.listeners) { first, _ in first }
        for group in node.groups.values { found[ObjectIdentifier(group)] = group }
    }

    func forEach(_ body: (any ChangeListener) -> Void) {
        func visit(_ node: TrieNode) {
            for listener in node.listeners.values { body(listener) }
            for group in node.groups.values { group.forEachMember(body) }
            for child in node.children.values { visit(child) }
        }
        for root in self.roots.values { visit(root) }
    }
}
