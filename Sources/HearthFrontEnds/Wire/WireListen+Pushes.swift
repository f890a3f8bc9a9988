import HearthCore
import HearthDatabase
import HearthWire

/// What a committed change becomes on the wire for one listen (reference §1.8, §1.9.2).
extension WireListen {
    /// Pushes for a default listen at `path` (the same for every one there). A write at or above the listen path
    /// (or at one place inside it) that replaced a value goes out as the value's changes, an `m` of the changed
    /// paths, when they are few against the value's size (`replacementPush`) — the client holds the old value, and a
    /// transaction's put of a whole post changes two leaves of it — and otherwise as a `d` of the whole value; writes
    /// at several places inside go out as one `m` at their deepest common ancestor.
    /// - Complexity: O(m · d) for m mutations at depth d, plus diffing the old and new values where they differ, plus
    ///   rendering the pushed values.
    static func defaultPushes(for change: CommittedChange, at path: Path) -> [[UInt8]] {
        let inside: [Path]
        switch change.effect(at: path) {
        case .replaced(let old, let new):
            return old == new ? [] : [Self.replacementPush(path, old: old, new: new)]
        case .inside(let mutations):
            inside = mutations.map(\.path)
        }
        guard let first = inside.first else { return [] }
        let ancestor = inside.dropFirst().reduce(first) { $0.commonAncestor(with: $1) }
        if inside.count == 1 || inside.contains(ancestor) {
            return [
                Self.replacementPush(
                    ancestor, old: change.oldRoot.node(at: ancestor), new: change.newRoot.node(at: ancestor))
            ]
        }
        var seen = Set<Path>()
        var changes: [WireMergeChange] = []
        for path in inside where seen.insert(path).inserted {
            changes.append(
                WireMergeChange(
                    relative: ancestor.relativePath(to: path) ?? .root, data: .node(change.newRoot.node(at: path))))
        }
        return [WireServerMessage.mergePush(path: ancestor, changes: changes, tag: nil).encoded()]
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
            return [Self.dataPush(self.path, new, tag: self.tag)]
        }
        var changes: [WireMergeChange] = []
        for (key, _) in old.children where new.child(key).isEmpty {
            changes.append(WireMergeChange(relative: Path(keys: [key]), data: .node(.empty)))
        }
        for (key, child) in new.children where old.child(key) != child {
            changes.append(WireMergeChange(relative: Path(keys: [key]), data: .node(child)))
        }
        if new.priority != old.priority {
            return [Self.dataPush(self.path, new, tag: self.tag)]
        }
        return changes.isEmpty
            ? [] : [WireServerMessage.mergePush(path: self.path, changes: changes, tag: self.tag).encoded()]
    }

    /// The most changed paths a replaced value's push lists before it sends the whole value instead.
    static let mergeLimit = 32

    /// `new` replacing `old` at `path`, for a client holding `old`: its changes as an `m` when they are few and at
    /// most half as many as the nodes of `new` (a value that shares little with the old one goes whole), else a `d`
    /// of `new`.
    private static func replacementPush(_ path: Path, old: Node, new: Node) -> [UInt8] {
        guard let changes = new.changes(from: old, limit: Self.mergeLimit), !changes.isEmpty,
            changes.count * 2 <= new.nodeCount(upTo: 2 * Self.mergeLimit)
        else {
            return Self.dataPush(path, new, tag: nil)
        }
        let merge = changes.map { WireMergeChange(relative: $0.path, data: .node($0.node)) }
        return WireServerMessage.mergePush(path: path, changes: merge, tag: nil).encoded()
    }

    private static func dataPush(_ path: Path, _ node: Node, tag: Int64?) -> [UInt8] {
        WireServerMessage.dataPush(path: path, data: .node(node), tag: tag).encoded()
    }
}
