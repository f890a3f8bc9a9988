import HearthCore

/// Rebuilds a tree from nodes given in depth-first key order, building each child map once, in bulk, straight into
/// its B+tree leaves (a map of millions of children is never gathered in an array first).
struct TreeAssembler {
    let namespace: String
    /// The open ancestors of the next node: their keys, the children given so far and priorities.
    private var frames: [(key: Key?, children: ChildMap.Builder, priority: Priority?)] = [
        (nil, ChildMap.Builder(), nil)
    ]
    private var openPath: [Key] = []
    /// Set when the namespace's root is itself a leaf (written as one record at the root).
    private var rootLeaf: Node?

    init(namespace: String) {
        self.namespace = namespace
    }

    /// Records the priority of the spine node at `path` (opened if needed).
    mutating func setPriority(_ priority: Priority?, at path: Path) {
        self.open(path.keys)
        self.frames[self.frames.count - 1].priority = priority
    }

    /// Adds `node` as the child `key` of the node at `parent`, or as the root itself when `key` is nil; nodes must
    /// arrive in depth-first key order.
    mutating func add(_ node: Node, under parent: Path, key: Key?) {
        guard let key else {
            self.rootLeaf = node
            return
        }
        self.open(parent.keys)
        self.frames[self.frames.count - 1].children.append(key, node)
    }

    /// Closes every open frame and returns the namespace's root.
    mutating func finish() -> (namespace: String, root: Node) {
        self.close(to: 0)
        if let rootLeaf = self.rootLeaf { return (self.namespace, rootLeaf) }
        let root = self.frames.removeLast()
        return (self.namespace, Node(children: root.children.finish(), priority: root.priority))
    }

    private mutating func open(_ keys: [Key]) {
        var shared = 0
        while shared < keys.count, shared < self.openPath.count, keys[shared] == self.openPath[shared] { shared += 1 }
        self.close(to: shared)
        for key in keys[shared...] {
            self.frames.append((key, ChildMap.Builder(), nil))
            self.openPath.append(key)
        }
    }

    private mutating func close(to depth: Int) {
        while self.openPath.count > depth, let frame = self.frames.popLast() {
            self.openPath.removeLast()
            let node = Node(children: frame.children.finish(), priority: frame.priority)
            if let key = frame.key, !node.isEmpty {
                self.frames[self.frames.count - 1].children.append(key, node)
            }
        }
    }
}

/// Every namespace's tree, rebuilt from a snapshot's records fed in the order they were written.
struct SnapshotRoots {
    private var roots: [String: Node] = [:]
    private var builder: TreeAssembler?

    mutating func add(_ line: SnapshotLine) throws {
        switch line {
        case .namespace(let name):
            if let finished = self.builder?.finish() { self.roots[finished.namespace] = finished.root }
            self.builder = TreeAssembler(namespace: name)
        case .priority(let path, let priority):
            guard self.builder != nil else { throw CommitRecordError("snapshot has a record before its namespace") }
            self.builder?.setPriority(priority, at: path)
        case .node(let parent, let key, let node):
            guard self.builder != nil else { throw CommitRecordError("snapshot has a record before its namespace") }
            self.builder?.add(node, under: parent, key: key)
        }
    }

    /// The non-empty trees, by namespace.
    mutating func finish() -> [String: Node] {
        if let finished = self.builder?.finish() { self.roots[finished.namespace] = finished.root }
        self.builder = nil
        return self.roots.filter { !$0.value.isEmpty }
    }
}
