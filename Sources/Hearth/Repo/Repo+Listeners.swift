import HearthCore

/// Listeners: registered at once (so a handle can be removed before the engine has seen it), then handed to the
/// engine on the repo's queue.
extension Repo {
    func addListener(
        _ query: DatabaseQuery,
        eventType: DataEventType,
        once: Bool,
        onEvent: AppCallback<(DataSnapshot, String?)>,
        onCancel: AppCallback<any Error>?
    ) -> DatabaseHandle {
        let id = ListenerID(self.makeNumber())
        var onFirstEvent: (@Sendable (ListenerID) -> Void)?
        if once {
            onFirstEvent = { [weak self] id in self?.removeListeners([id]) }
        }
        let registration = ListenerRegistration(
            id: id,
            query: query,
            eventType: eventType,
            onEvent: onEvent,
            onCancel: onCancel,
            onFirstEvent: onFirstEvent
        )
        self.register(registration)
        self.run { state in
            guard state.listeners[id] != nil else { return SyncOutput() }
            return state.engine.addListener(
                id, at: query.path, query: query.parameters.spec, kinds: [eventType.kind])
        }
        return DatabaseHandle(id.rawValue)
    }

    /// Removes the listeners `matching` selects: they hear nothing from now on.
    func removeListeners(matching: @Sendable (ListenerRegistration) -> Bool) {
        let removed = self.unregister(matching)
        self.removeFromEngine(removed)
    }

    func removeListeners(_ ids: [ListenerID]) {
        let wanted = Set(ids)
        self.removeListeners { wanted.contains($0.id) }
    }

    private func removeFromEngine(_ ids: [ListenerID]) {
        guard !ids.isEmpty else { return }
        self.run { state in
            var output = SyncOutput()
            for id in ids {
                let removed = state.engine.removeListener(id)
                output.commands += removed.commands
                output.effects += removed.effects
            }
            return output
        }
    }

    /// `keepSynced`.
    func keepSynced(_ path: Path, _ enabled: Bool) {
        self.run { state in state.engine.keepSynced(path, enabled) }
    }
}
