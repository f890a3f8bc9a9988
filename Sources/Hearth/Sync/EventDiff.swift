package import HearthCore

/// The events that take a listener from one view snapshot to the next, in Firebase's order.
///
/// Firebase raises, for one change, every `childRemoved`, then `childAdded`, `childMoved`, `childChanged` and
/// finally `value`; within a kind, children come in the view's order (removed children in the order they had).
/// A changed child is also moved when its value under the index changed, whether or not its position did.
/// `value` comes only for a complete view, when it just became complete or its data changed.
package enum EventDiff {
    /// The events from `old` to `new` for the view at `path` ordered by `index`.
    /// - Complexity: O(n) in the children of both snapshots (plus the cost of comparing changed children).
    package static func events(
        from old: ViewSnapshot,
        to new: ViewSnapshot,
        path: Path,
        index: QueryIndex
    ) -> [DataEvent] {
        var events: [DataEvent] = []
        var oldNodes: [Key: Node] = [:]
        oldNodes.reserveCapacity(old.ordered.count)
        for (key, node) in old.ordered { oldNodes[key] = node }
        var newKeys = Set<Key>()
        newKeys.reserveCapacity(new.ordered.count)
        for (key, _) in new.ordered { newKeys.insert(key) }

        for (key, node) in old.ordered where !newKeys.contains(key) {
            events.append(
                DataEvent(
                    kind: .childRemoved, path: path.appending(key), node: node, index: index, previousSiblingKey: nil))
        }
        var moved: [DataEvent] = []
        var changed: [DataEvent] = []
        var previous: Key?
        for (key, node) in new.ordered {
            defer { previous = key }
            let event = { (kind: DataEventKind) in
                DataEvent(kind: kind, path: path.appending(key), node: node, index: index, previousSiblingKey: previous)
            }
            guard let before = oldNodes[key] else {
                events.append(event(.childAdded))
                continue
            }
            guard before != node else { continue }
            if index.precedes((key, before), (key, node)) || index.precedes((key, node), (key, before)) {
                moved.append(event(.childMoved))
            }
            changed.append(event(.childChanged))
        }
        events += moved
        events += changed
        if new.isComplete, !old.isComplete || old.node != new.node {
            events.append(DataEvent(kind: .value, path: path, node: new.node, index: index, previousSiblingKey: nil))
        }
        return events
    }
}
