package import HearthCore

/// Computing what views show and raising the difference.
extension SyncEngine {
    /// What the view `key` shows now: the server cache at its path with the visible pending writes layered on,
    /// through its query.
    ///
    /// A view is complete when the server answered it (or a complete window answers its query), or when writes
    /// cover its whole location. An incomplete view shows only the children it knows wholly, and raises no `value`.
    package func snapshot(for key: ViewKey) -> ViewSnapshot {
        let known: KnownTree
        let answered: Bool
        if key.isInfo {
            known = .complete(self.info.tree.node(at: key.path))
            answered = true
        } else {
            let base = self.server.base(at: key.path, query: key.query)
            known = self.writes.apply(to: base.known, at: key.path)
            answered = base.answersQuery
        }
        let isWhole = known.completeness == .complete
        let data = isWhole ? known.node : known.completeChildren
        let shown = key.loadsAllData ? data : key.query.evaluate(data)
        return ViewSnapshot(node: shown, ordered: key.query.orderedChildren(shown), isComplete: answered || isWhole)
    }

    /// The value at `path` as listeners see it (pending writes included), as far as it is known.
    package func visibleNode(at path: Path) -> Node {
        let known = self.writes.apply(to: self.server.tree.subtree(at: path), at: path)
        return known.node
    }

    /// Marks the views at, above or below `path` for recomputing before the call returns.
    mutating func refreshViews(near path: Path) {
        self.changedPaths.append(path)
    }

    /// Recomputes every view near a changed location, deepest first (Firebase raises a child location's events
    /// before its ancestors'), and raises what changed.
    mutating func refreshChangedViews() {
        guard !self.changedPaths.isEmpty else { return }
        let changed = self.changedPaths
        self.changedPaths = []
        let keys = self.views.keys.filter { key in
            changed.contains { key.path.contains($0) || $0.contains(key.path) }
        }
        for key in keys.sorted(by: { self.raisingOrder($0, $1) }) {
            self.refreshView(key)
        }
    }

    mutating func refreshView(_ key: ViewKey) {
        guard let view = self.views[key] else { return }
        let next = self.snapshot(for: key)
        let events = EventDiff.events(from: view.shown, to: next, path: key.path, index: key.query.index)
        self.views[key]?.shown = next
        self.raise(events, to: view.registrations)
    }

    /// Raises `events` to each registration that asked for their kind: kind by kind, child by child, listener by
    /// listener, as Firebase's `EventGenerator` does.
    mutating func raise(_ events: [DataEvent], to registrations: [(id: ListenerID, kinds: Set<DataEventKind>)]) {
        for event in events {
            for registration in registrations where registration.kinds.contains(event.kind) {
                self.emit(.event(registration.id, event))
            }
        }
    }

    /// Deeper views first, then by path, then the unfiltered view before filtered ones in the order they were
    /// made (their tags), so every run raises in the same order.
    func raisingOrder(_ lhs: ViewKey, _ rhs: ViewKey) -> Bool {
        if lhs.path.count != rhs.path.count { return lhs.path.count > rhs.path.count }
        if lhs.path != rhs.path { return lhs.path < rhs.path }
        return (self.views[lhs]?.tag ?? 0) < (self.views[rhs]?.tag ?? 0)
    }
}
