package import HearthCore
import HearthWire

/// The cache a persistent client keeps across restarts (`Database.isPersistenceEnabled`).
///
/// Without persistence, data no listen covers is dropped (it would go stale unnoticed). With it, a location's data
/// stays cached after its last listener goes, remembered with when it was last used, so that a restarted or
/// offline client still shows it; it is refreshed by the next listen, and the least recently used locations are
/// dropped first when the cache outgrows its size (never one that is listened to or kept synced).
extension SyncEngine {
    /// The wholly known regions to save: every listened or retained location, outermost first.
    package var cacheRegions: [(path: Path, node: Node)] {
        let paths = Set(self.wholeListenPaths).union(self.retainedPaths.keys)
        let outermost = paths.filter { path in !paths.contains { $0 != path && $0.contains(path) } }.sorted()
        return outermost.filter { self.server.tree.isComplete(at: $0) }.map { ($0, self.server.tree.node.node(at: $0)) }
    }

    /// Loads regions saved by an earlier run: known wholly until a listen brings the server's newer data.
    package mutating func restoreCache(_ regions: [(path: Path, node: Node)], now: Int64) -> SyncOutput {
        self.producing { engine in
            engine.retainsCache = true
            for (path, node) in regions {
                engine.server.tree.set(node, at: path)
                engine.retainedPaths[path] = now
                engine.refreshViews(near: path)
            }
        }
    }

    /// Drops the least recently used retained locations until the cache's estimated size is at most
    /// `maximumBytes`; listened and synced locations stay whatever their size.
    package mutating func trimCache(maximumBytes: Int) {
        var size = self.server.tree.node.estimatedBytes(upTo: Int.max)
        guard size > maximumBytes else { return }
        let active = Set(self.wholeListenPaths).union(self.syncedPaths)
        let candidates = self.retainedPaths.filter { path, _ in
            !active.contains { $0.contains(path) || path.contains($0) }
        }
        .sorted { ($0.value, $0.key) < ($1.value, $1.key) }
        for (path, _) in candidates where size > maximumBytes {
            self.retainedPaths[path] = nil
            size -= self.server.tree.node.node(at: path).estimatedBytes(upTo: Int.max)
        }
        self.pruneServerCache()
    }

    /// A listen at `path` ended: with persistence its data stays cached, remembered as used now.
    mutating func retain(_ path: Path) {
        guard self.retainsCache, self.server.tree.isComplete(at: path) else { return }
        self.retainedPaths[path] = self.lastNow
    }
}
