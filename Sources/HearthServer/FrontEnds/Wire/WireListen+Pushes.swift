import HearthCore

/// What a committed change becomes on the wire for one listen (reference §1.8, §1.9.2).
extension WireListen {
    /// Pushes for a default listen: `d` at the listen path when a write above it changed its value; otherwise `d`
    /// at the one changed path inside it, or one `m` at the deepest common ancestor of several.
    /// - Complexity: O(m · d) for m mutations at depth d, plus rendering the pushed values.
    func defaultPushes(for change: CommittedChange) -> [[UInt8]] {
        let inside: [Path]
        switch change.effect(at: self.path) {
        case .replaced(let old, let new):
            return old == new ? [] : [WireMessage.setPush(path: self.path, node: new, tag: nil)]
        case .inside(let mutations):
            inside = mutations.map(\.path)
        }
        guard let first = inside.first else { return [] }
        let ancestor = inside.dropFirst().reduce(first) { $0.commonAncestor(with: $1) }
        if inside.count == 1 || inside.contains(ancestor) {
            return [WireMessage.setPush(path: ancestor, node: change.newRoot.node(at: ancestor), tag: nil)]
        }
        var seen = Set<Path>()
        var changes: [(relative: Path, node: Node)] = []
        for path in inside where seen.insert(path).inserted {
            changes.append((ancestor.relativePath(to: path) ?? .root, change.newRoot.node(at: path)))
        }
        return [WireMessage.mergePush(path: ancestor, changes: changes, tag: nil)]
    }

    /// Pushes for a tagged listen: one `m` on the query path listing the children that entered or changed (with
    /// their values) and those that left the window (`null`), or nothing when the window is unchanged. The client
    /// never holds more than its window (a `limitToLast(100)` keeps exactly 100 children).
    /// - Complexity: O(q + w) to re-evaluate the query over q children and diff a window of w children.
    func taggedPushes(for change: CommittedChange, window: inout Node) -> [[UInt8]] {
        let new = self.value(in: change.newRoot)
        let old = window
        guard new != old else { return [] }
        window = new
        if new.isLeaf || old.isLeaf || new.isEmpty || old.isEmpty {
            return [WireMessage.setPush(path: self.path, node: new, tag: self.tag)]
        }
        var changes: [(relative: Path, node: Node)] = []
        for (key, _) in old.children where new.child(key).isEmpty {
            changes.append((Path(keys: [key]), .empty))
        }
        for (key, child) in new.children where old.child(key) != child {
            changes.append((Path(keys: [key]), child))
        }
        if new.priority != old.priority {
            return [WireMessage.setPush(path: self.path, node: new, tag: self.tag)]
        }
        return changes.isEmpty ? [] : [WireMessage.mergePush(path: self.path, changes: changes, tag: self.tag)]
    }
}
