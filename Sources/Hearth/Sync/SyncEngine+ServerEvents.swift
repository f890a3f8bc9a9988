import HearthCore
import HearthWire

/// What the connection reports.
extension SyncEngine {
    /// Applies one `ServerEvent`.
    /// - Parameter now: the local clock in milliseconds since the Unix epoch, for back-offs that start now.
    package mutating func handle(_ event: ServerEvent, now: Int64? = nil) -> SyncOutput {
        self.producing { engine in
            if let now { engine.lastNow = max(engine.lastNow, now) }
            switch event {
            case .connected(let offset):
                engine.info.isConnected = true
                engine.info.serverTimeOffset = offset
                engine.refreshViews(near: Path(keys: [InfoData.rootKey]))
            case .disconnected:
                engine.info.isConnected = false
                engine.pushedListens = []
                engine.refreshViews(near: Path(keys: [InfoData.rootKey]))
                engine.runOnDisconnectWrites()
            case .data(let path, let data, let tag):
                engine.receive([WireMergeChange(relative: .root, data: data)], at: path, tag: tag)
                if let key = engine.listens.keys.first(where: { $0.path == path && $0.tag == tag }) {
                    engine.pushedListens.insert(key)
                }
            case .merge(let path, let changes, let tag):
                engine.receive(changes, at: path, tag: tag)
            case .listenAnswered(let key, let response):
                let cameWithData = engine.pushedListens.remove(key) != nil
                engine.listenAnswered(key, response, cameWithData: cameWithData)
                engine.sendReadyTransactions()
            case .listenRevoked(let path, let query):
                let revoked = engine.listens.keys.filter { $0.path == path && (query == nil || $0.query == query) }
                for key in revoked.sorted(by: Self.listenOrder) {
                    engine.listenFailed(key, SyncErrors.revoked)
                }
            case .writeAnswered(let id, let response):
                if engine.transactionSends[id] != nil {
                    engine.transactionPutAnswered(id, response)
                } else {
                    engine.writeAnswered(id, response)
                }
            case .requestAnswered(let token, let response):
                engine.requestAnswered(token, response)
            case .shutdown:
                // The connection reported `disconnected` first, which is what the engine's state follows; the
                // reason is the API's to surface.
                break
            }
        }
    }

    /// Server data: each change overwrites its location, in the shared tree (untagged) or in its query's window.
    private mutating func receive(_ changes: [WireMergeChange], at path: Path, tag: Int64?) {
        var nodes: [(Path, Node)] = []
        for change in changes {
            // Data that breaks the tree's rules cannot come from a Hearth or Firebase server; it is dropped.
            guard let node = try? change.data.tree() else { continue }
            nodes.append((path.appending(change.relative), node))
        }
        if let tag {
            guard let key = self.listens.keys.first(where: { $0.tag == tag }), let query = key.query else { return }
            let viewKey = ViewKey(path: key.path, query: query)
            var window = self.server.windows[viewKey] ?? QueryWindow(node: .empty, isComplete: false)
            for (target, node) in nodes {
                guard let relative = key.path.relativePath(to: target) else { continue }
                window.node.set(node, at: relative)
            }
            self.server.windows[viewKey] = window
        } else {
            for (target, node) in nodes {
                self.storeServerData(node, at: target)
            }
        }
        self.refreshViews(near: path)
        self.rerunTransactions(near: path)
    }

    /// Stores untagged data where a listen covers it.
    mutating func storeServerData(_ node: Node, at target: Path) {
        for listen in self.wholeListenPaths {
            if listen.contains(target) {
                self.server.tree.set(node, at: target)
                return
            }
            if let inside = target.relativePath(to: listen) {
                self.server.tree.set(node.node(at: inside), at: listen)
            }
        }
    }

    /// A listen's answer. Hearth's server always pushes a listen's data (null too) before answering it, with
    /// other pushes possibly in between; after a reconnect the connection's repeated listen is answered the same
    /// way. A server that skips data matching the listen's hash skips only null, since listens go out with the
    /// empty hash: an `ok` that came with no push of the whole location since the listen means nothing is there.
    /// (Such a server could still leave stale data here if a listen the client had dropped pushed the whole
    /// location after this listen went out, and the location then emptied before the answer.)
    private mutating func listenAnswered(_ key: ListenKey, _ response: WireResponse, cameWithData: Bool) {
        guard self.listens[key] != nil else { return }
        switch response {
        case .ok:
            self.listens[key] = true
            let held: Node? = cameWithData ? nil : .empty
            if let query = key.query, key.tag != nil {
                let viewKey = ViewKey(path: key.path, query: query)
                var window = self.server.windows[viewKey] ?? QueryWindow(node: .empty, isComplete: false)
                window.isComplete = true
                if let held { window.node = held }
                self.server.windows[viewKey] = window
            } else {
                self.server.tree.set(held ?? self.server.tree.node.node(at: key.path), at: key.path)
            }
            self.refreshViews(near: key.path)
            self.dropSettledWrites()
        case .failure(let error):
            self.listenFailed(key, error)
        }
    }

    /// Cancels the views a failed listen served (every view at an untagged listen's location, or the tagged
    /// listen's one view): their listeners hear `cancelled` and are removed.
    private mutating func listenFailed(_ key: ListenKey, _ error: WireProtocolError) {
        self.forgetListen(key)
        let served = self.views.keys.filter { view in
            view.path == key.path && (key.tag == nil || self.views[view]?.tag == key.tag)
        }
        for view in served.sorted(by: { self.raisingOrder($0, $1) }) {
            guard let state = self.views[view] else { continue }
            for registration in state.registrations {
                self.listenerViews[registration.id] = nil
                self.emit(.cancelled(registration.id, error))
            }
            // Transactions pinning the view lose it too: listening again would only fail again.
            self.views[view] = nil
        }
        self.planListens()
    }
}
