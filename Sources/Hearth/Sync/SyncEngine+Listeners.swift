package import HearthCore

/// Listeners, views and the listens they need from the server.
extension SyncEngine {
    /// Adds a listener for `kinds` of events on `path` through `query`. It hears at once what the view already
    /// shows (`childAdded` for each child, `value` when complete), then every change.
    package mutating func addListener(
        _ id: ListenerID,
        at path: Path,
        query: QuerySpec = .default,
        kinds: Set<DataEventKind>
    ) -> SyncOutput {
        self.producing { engine in
            let key = ViewKey(path: path, query: query)
            engine.ensureView(key)
            engine.views[key]?.registrations.append((id, kinds))
            engine.listenerViews[id] = key
            if let shown = engine.views[key]?.shown {
                let initial = EventDiff.events(from: .nothing, to: shown, path: path, index: query.index)
                engine.raise(initial, to: [(id, kinds)])
            }
            engine.planListens()
        }
    }

    /// Removes a listener; its view goes when nothing else uses it, and with it the listen and the cached data
    /// nothing else needs.
    package mutating func removeListener(_ id: ListenerID) -> SyncOutput {
        self.producing { engine in
            guard let key = engine.listenerViews.removeValue(forKey: id) else { return }
            engine.views[key]?.registrations.removeAll { $0.id == id }
            engine.dropViewIfUnused(key)
            engine.planListens()
        }
    }

    /// `keepSynced`: holds the location's data current with no listener (a pinned view, as Firebase's hidden
    /// listener does). Asking twice for the same state changes nothing.
    package mutating func keepSynced(_ path: Path, _ enabled: Bool) -> SyncOutput {
        self.producing { engine in
            if enabled, engine.syncedPaths.insert(path).inserted {
                engine.pin(ViewKey(path: path))
            } else if !enabled, engine.syncedPaths.remove(path) != nil {
                engine.unpin(ViewKey(path: path))
            }
        }
    }

    /// Creates the view when missing, showing what is known already.
    mutating func ensureView(_ key: ViewKey) {
        guard self.views[key] == nil else { return }
        var tag: Int64?
        if !key.loadsAllData && !key.isInfo {
            tag = self.nextTag
            self.nextTag += 1
        }
        self.views[key] = ViewState(tag: tag, shown: self.snapshot(for: key))
    }

    mutating func dropViewIfUnused(_ key: ViewKey) {
        guard let view = self.views[key], view.isUnused else { return }
        self.views[key] = nil
    }

    /// Keeps a view alive without a listener, so the server keeps its data current (a transaction's location).
    mutating func pin(_ key: ViewKey) {
        self.ensureView(key)
        self.views[key]?.pins += 1
        self.planListens()
    }

    mutating func unpin(_ key: ViewKey) {
        self.views[key]?.pins -= 1
        self.dropViewIfUnused(key)
        self.planListens()
    }

    /// The listens the views need: one untagged listen per location that loads all data and has no such listen
    /// above it, and one tagged listen per filtered view not inside one of those.
    func neededListens() -> [ListenKey] {
        let keys = self.views.keys.filter { !$0.isInfo }
        let whole = Set(keys.filter(\.loadsAllData).map(\.path))
        let tops = whole.filter { path in !whole.contains { $0 != path && $0.contains(path) } }
        var needed = tops.map { ListenKey(path: $0, query: nil, tag: nil) }
        for key in keys where !key.loadsAllData && !tops.contains(where: { $0.contains(key.path) }) {
            needed.append(ListenKey(path: key.path, query: key.query, tag: self.views[key]?.tag))
        }
        return needed.sorted(by: Self.listenOrder)
    }

    /// Asks for the listens now needed and drops those no longer needed (new ones first, so data stays covered),
    /// then forgets cached data no listen covers.
    ///
    /// Listens go out with the empty hash. A hash of the cache would let the server skip data the client holds,
    /// but the connection repeats a listen with its first hash after every reconnect, and pushes through other
    /// listens change the cache while it waits, so an answer without data could not say which data the server
    /// meant; with the empty hash it always means "nothing there".
    mutating func planListens() {
        let needed = self.neededListens()
        let neededSet = Set(needed)
        for key in needed where self.listens[key] == nil {
            self.listens[key] = false
            self.pushedListens.remove(key)
            self.seedWindow(for: key)
            self.send(.listen(key, hash: ""))
        }
        let stale = self.listens.keys.filter { !neededSet.contains($0) }
        guard !stale.isEmpty else { return }
        for key in stale.sorted(by: Self.listenOrder) {
            if key.tag == nil { self.retain(key.path) }
            self.listens[key] = nil
            self.pushedListens.remove(key)
            self.send(.unlisten(key))
        }
        self.pruneServerCache()
    }

    /// Drops a listen the server ended (no `unlisten` is sent), then plans again.
    mutating func forgetListen(_ key: ListenKey) {
        self.listens[key] = nil
        self.pushedListens.remove(key)
        self.pruneServerCache()
    }

    /// The paths of the untagged listens held.
    var wholeListenPaths: [Path] {
        self.listens.keys.filter { $0.tag == nil }.map(\.path)
    }

    /// Keeps only the cached data some listen still covers (or, with persistence, that is retained), as Firebase
    /// does: data nobody listens to would go stale unnoticed.
    mutating func pruneServerCache() {
        self.dropSettledWrites()
        var kept = KnownTree.unknown
        for path in self.wholeListenPaths + self.retainedPaths.keys.sorted() {
            kept.replace(at: path, with: self.server.tree.subtree(at: path))
        }
        self.server.tree = kept
        let tagged = Set(self.listens.keys.compactMap { key in key.query.map { ViewKey(path: key.path, query: $0) } })
        // A window whose listen gave way to a listen above it still serves its view until that one is answered.
        self.server.windows = self.server.windows.filter { key, _ in
            tagged.contains(key) || (self.views[key] != nil && !self.server.tree.isComplete(at: key.path))
        }
    }

    /// A filtered listen taking over from a complete listen above it starts from that listen's data, so its view
    /// stays complete until the server's answer. A window kept from an earlier
    /// listen may be stale: it counts as incomplete until the server answers.
    private mutating func seedWindow(for key: ListenKey) {
        guard let query = key.query, key.tag != nil else { return }
        let view = ViewKey(path: key.path, query: query)
        guard self.server.tree.isComplete(at: key.path) else {
            self.server.windows[view]?.isComplete = false
            return
        }
        let data = query.evaluate(self.server.tree.node.node(at: key.path))
        self.server.windows[view] = QueryWindow(node: data, isComplete: true)
    }

    /// Listens in a stable order: by path, then tag.
    static func listenOrder(_ lhs: ListenKey, _ rhs: ListenKey) -> Bool {
        lhs.path != rhs.path ? lhs.path < rhs.path : (lhs.tag ?? 0) < (rhs.tag ?? 0)
    }
}
