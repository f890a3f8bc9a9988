import Dispatch
import HearthCore
import HearthWire

/// What a persistent repo does with its `ClientStore`, on the repo's queue: logs each write before it is sent,
/// marks it finished when the server answers, makes the logged writes again after a restart, and saves the cache
/// (trimmed to its size) a little after it changes.
final class RepoPersistence: Sendable {
    /// How long after a change the cache is saved (changes meanwhile are saved with it).
    static let saveDelay = DispatchTimeInterval.seconds(1)

    let store: ClientStore
    let cacheBytes: Int

    init(store: ClientStore, cacheBytes: Int) {
        self.store = store
        self.cacheBytes = cacheBytes
    }

    /// At start: the saved cache, then the saved writes made again in order (local events, then sends), logged
    /// anew under their new numbers.
    func restore(into state: inout RepoState) -> SyncOutput {
        var output = state.engine.restoreCache(self.store.loadCache(), now: Repo.now())
        state.engine.retainsCache = true
        var live: [(id: Int64, write: PersistedWrite)] = []
        for (_, write) in self.store.loadWrites() {
            guard let (id, made) = Self.make(write, in: &state.engine) else {
                DatabaseLog.always("a saved write to \(write.path) could not be read again; it is dropped")
                continue
            }
            live.append((id.rawValue, write))
            state.loggedWrites.insert(id)
            output.commands += made.commands
            output.effects += made.effects
        }
        self.store.rewriteWrites(live)
        return output
    }

    /// Logs a write the engine just made, before its output is sent.
    func log(_ id: WriteID, _ write: PersistedWrite, in state: inout RepoState) {
        self.store.appendAdded(id.rawValue, write)
        state.loggedWrites.insert(id)
    }

    /// Finishes the logged writes `output` completes; says whether a cache save should be scheduled (once per
    /// burst of changes: none is while one is pending).
    func record(_ output: SyncOutput, in state: inout RepoState) -> Bool {
        var finished = false
        for effect in output.effects {
            guard case .writeCompleted(let id, _) = effect, state.loggedWrites.remove(id) != nil else { continue }
            self.store.appendFinished(id.rawValue)
            finished = true
        }
        if finished && state.loggedWrites.isEmpty { self.store.rewriteWrites([]) }
        guard !state.isCacheSaveScheduled, !output.effects.isEmpty || !output.commands.isEmpty else { return false }
        state.isCacheSaveScheduled = true
        return true
    }

    func saveCache(from state: inout RepoState) {
        state.isCacheSaveScheduled = false
        state.engine.trimCache(maximumBytes: self.cacheBytes)
        self.store.saveCache(state.engine.cacheRegions)
    }

    /// Makes a logged write again through the engine.
    static func make(_ write: PersistedWrite, in engine: inout SyncEngine) -> (WriteID, SyncOutput)? {
        switch write.kind {
        case .set:
            guard let value = try? WriteValue.checked(write.data, at: write.path) else { return nil }
            return engine.set(value, at: write.path, now: Repo.now(), logged: write.origin)
        case .update:
            guard case .object(let members) = write.data, !members.isEmpty else { return nil }
            var entries: [(relative: Path, value: WriteValue)] = []
            for (key, data) in members.sorted(by: { $0.key < $1.key }) {
                guard let relative = try? Path(validating: key.string),
                    let value = try? WriteValue.checked(data, at: write.path.appending(relative))
                else { return nil }
                entries.append((relative, value))
            }
            return engine.update(entries, at: write.path, now: Repo.now(), logged: write.origin)
        case .priority:
            let priority: Priority?
            do {
                priority = try WriteValue.priority(write.data.foundationValue, at: write.path)
            } catch {
                return nil
            }
            return engine.setPriority(priority, at: write.path, logged: write.origin)
        }
    }
}
