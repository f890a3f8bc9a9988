import Foundation
import HearthCore
import HearthSystem
import HearthWire
import Synchronization

/// One `observe` or `observeSingleEvent`: the query it watches, the app's blocks and whether it still hears
/// anything. Removing it stops its callbacks at once, even those already queued on the callback queue.
final class ListenerRegistration: Sendable {
    let id: ListenerID
    let query: DatabaseQuery
    let eventType: DataEventType
    private let onEvent: AppCallback<(DataSnapshot, String?)>
    private let onCancel: AppCallback<any Error>?
    /// For `observeSingleEvent`: called once the first event is delivered, to remove the listener.
    private let onFirstEvent: (@Sendable (ListenerID) -> Void)?
    private let isActive = Atomic<Bool>(true)

    init(
        id: ListenerID,
        query: DatabaseQuery,
        eventType: DataEventType,
        onEvent: AppCallback<(DataSnapshot, String?)>,
        onCancel: AppCallback<any Error>?,
        onFirstEvent: (@Sendable (ListenerID) -> Void)?
    ) {
        self.id = id
        self.query = query
        self.eventType = eventType
        self.onEvent = onEvent
        self.onCancel = onCancel
        self.onFirstEvent = onFirstEvent
    }

    /// Stops every later callback; true when it was still active.
    @discardableResult
    func deactivate() -> Bool {
        self.isActive.exchange(false, ordering: .acquiringAndReleasing)
    }

    /// On the callback queue: raises `event` unless the listener was removed.
    func deliver(_ event: DataEvent) {
        if let onFirstEvent = self.onFirstEvent {
            guard self.deactivate() else { return }
            onFirstEvent(self.id)
        } else {
            guard self.isActive.load(ordering: .acquiring) else { return }
        }
        let snapshot = DataSnapshot(
            ref: DatabaseReference(database: self.query.database, path: event.path),
            node: event.node,
            index: event.index
        )
        self.onEvent((snapshot, event.previousSiblingKey?.string))
    }

    /// On the callback queue: the listen failed or was revoked; the listener hears nothing more.
    func cancel(_ error: WireProtocolError) {
        guard self.deactivate() else { return }
        self.onCancel?(DatabaseErrors.error(error))
    }
}
