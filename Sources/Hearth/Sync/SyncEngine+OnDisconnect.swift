import HearthCore
import HearthWire

/// The onDisconnect operations the server accepted, applied to the cache when the connection drops, as
/// Firebase's `Repo` does with its onDisconnect tree: listeners here see at once what other clients will see.
/// After a reconnect the listens' answers bring the server's own data.
extension SyncEngine {
    /// Records an accepted onDisconnect request: a set or update replaces what was queued at and below its paths;
    /// a cancel forgets what was queued at and below its path.
    mutating func rememberOnDisconnect(_ request: WireRequest) {
        switch request {
        case .onDisconnectPut(let text, let data):
            guard let path = try? Path(validating: text), let value = try? WriteValue(json: data, depth: path.count)
            else { return }
            self.remember(value, at: path)
        case .onDisconnectMerge(let text, let members):
            guard let path = try? Path(validating: text) else { return }
            for (relative, data) in members.sorted(by: { $0.key < $1.key }) {
                guard let child = try? Path(validating: relative.string),
                    let value = try? WriteValue(json: data, depth: path.count + child.count)
                else { continue }
                self.remember(value, at: path.appending(child))
            }
        case .onDisconnectCancel(let text):
            guard let path = try? Path(validating: text) else { return }
            self.forgetOnDisconnect(at: path)
        default:
            return
        }
    }

    private mutating func remember(_ value: WriteValue, at path: Path) {
        self.forgetOnDisconnect(at: path)
        self.onDisconnectWrites.append((path, value))
    }

    /// Drops what was queued at and below `path`, cutting it out of a write queued above it.
    private mutating func forgetOnDisconnect(at path: Path) {
        self.onDisconnectWrites.removeAll { path.contains($0.path) }
        for index in self.onDisconnectWrites.indices {
            guard let relative = self.onDisconnectWrites[index].path.relativePath(to: path) else { continue }
            self.onDisconnectWrites[index].value.place(WriteValue(node: .empty), at: relative)
        }
    }

    /// The connection dropped: the queued writes take effect in the cache (server values estimated), and
    /// transactions near them fail with `set` as after any other set.
    mutating func runOnDisconnectWrites() {
        let writes = self.onDisconnectWrites
        self.onDisconnectWrites = []
        for (path, value) in writes {
            let resolved = value.resolved(
                existing: self.server.tree.node.node(at: path),
                now: self.estimatedServerTime(now: self.lastNow)
            )
            self.storeServerData(resolved, at: path)
            self.refreshViews(near: path)
            self.abortTransactions(near: path)
        }
    }
}
