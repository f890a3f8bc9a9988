import Foundation
import HearthCore

/// Listening and reading once, as in FirebaseDatabase. Blocks run on the database's callback queue.
extension DatabaseQuery {
    /// Calls `block` with the data now and after every change of `eventType`; returns the handle to remove it.
    @discardableResult
    public func observe(_ eventType: DataEventType, with block: @escaping (DataSnapshot) -> Void) -> DatabaseHandle {
        self.listen(eventType, once: false, onEvent: { snapshot, _ in block(snapshot) }, onCancel: nil)
    }

    /// As `observe(_:with:)`, with `cancelBlock` called if the listen is refused or revoked (permission denied).
    @discardableResult
    public func observe(
        _ eventType: DataEventType,
        with block: @escaping (DataSnapshot) -> Void,
        withCancel cancelBlock: ((any Error) -> Void)?
    ) -> DatabaseHandle {
        self.listen(eventType, once: false, onEvent: { snapshot, _ in block(snapshot) }, onCancel: cancelBlock)
    }

    /// As `observe(_:with:)`, also passing the key of the previous child in the query's order (child events).
    @discardableResult
    public func observe(
        _ eventType: DataEventType,
        andPreviousSiblingKeyWith block: @escaping (DataSnapshot, String?) -> Void
    ) -> DatabaseHandle {
        self.listen(eventType, once: false, onEvent: block, onCancel: nil)
    }

    @discardableResult
    public func observe(
        _ eventType: DataEventType,
        andPreviousSiblingKeyWith block: @escaping (DataSnapshot, String?) -> Void,
        withCancel cancelBlock: ((any Error) -> Void)?
    ) -> DatabaseHandle {
        self.listen(eventType, once: false, onEvent: block, onCancel: cancelBlock)
    }

    /// Calls `block` once, with the first event of `eventType`, then stops listening.
    public func observeSingleEvent(of eventType: DataEventType, with block: @escaping (DataSnapshot) -> Void) {
        self.listen(eventType, once: true, onEvent: { snapshot, _ in block(snapshot) }, onCancel: nil)
    }

    public func observeSingleEvent(
        of eventType: DataEventType,
        with block: @escaping (DataSnapshot) -> Void,
        withCancel cancelBlock: ((any Error) -> Void)?
    ) {
        self.listen(eventType, once: true, onEvent: { snapshot, _ in block(snapshot) }, onCancel: cancelBlock)
    }

    public func observeSingleEvent(
        of eventType: DataEventType,
        andPreviousSiblingKeyWith block: @escaping (DataSnapshot, String?) -> Void
    ) {
        self.listen(eventType, once: true, onEvent: block, onCancel: nil)
    }

    public func observeSingleEvent(
        of eventType: DataEventType,
        andPreviousSiblingKeyWith block: @escaping (DataSnapshot, String?) -> Void,
        withCancel cancelBlock: ((any Error) -> Void)?
    ) {
        self.listen(eventType, once: true, onEvent: block, onCancel: cancelBlock)
    }

    /// The first event of `eventType` and the previous child's key.
    @discardableResult
    public func observeSingleEventAndPreviousSiblingKey(of eventType: DataEventType) async -> (DataSnapshot, String?) {
        await withCheckedContinuation { continuation in
            self.listen(
                eventType, once: true,
                onEvent: { snapshot, previous in continuation.resume(returning: (snapshot, previous)) },
                onCancel: { _ in continuation.resume(returning: (DataSnapshot(ref: self.ref, node: .empty), nil)) }
            )
        }
    }

    /// Stops the listener `handle` names, if it listens at this location.
    public func removeObserver(withHandle handle: DatabaseHandle) {
        let path = self.path
        self.database.repo.removeListeners { $0.id.rawValue == Int64(handle) && $0.query.path == path }
    }

    /// Stops every listener on this query; on a reference, every listener at its location, queries included (not
    /// those on child locations).
    public func removeAllObservers() {
        let path = self.path
        let spec: QuerySpec? = self is DatabaseReference ? nil : self.parameters.spec
        self.database.repo.removeListeners { registration in
            registration.query.path == path && (spec == nil || registration.query.parameters.spec == spec)
        }
    }

    /// Keeps the query's data current in the cache with no listener, or stops doing so.
    public func keepSynced(_ keepSynced: Bool) {
        precondition(
            !DatabasePath.isInfo(self.path), "Can't keep query on .info tree synced (this already is the case).")
        self.database.repo.keepSynced(self.path, keepSynced)
    }

    /// Reads the data once: from the server when connected, else from the cache; `block` gets an error when the
    /// client is offline and has never had the data.
    public func getData(completion block: @escaping ((any Error)?, DataSnapshot?) -> Void) {
        let callback = AppCallback<Result<DataSnapshot, NSError>> { result in
            switch result {
            case .success(let snapshot): block(nil, snapshot)
            case .failure(let error): block(error, nil)
            }
        }
        self.read(callback)
    }

    /// Reads the data once (see `getData(completion:)`).
    @discardableResult
    public func getData() async throws -> DataSnapshot {
        try await withCheckedThrowingContinuation { continuation in
            self.read(AppCallback { continuation.resume(with: $0) })
        }
    }

    private func read(_ callback: AppCallback<Result<DataSnapshot, NSError>>) {
        let ref = self.ref
        let index = self.parameters.spec.index
        self.database.repo.get(self.path, query: self.parameters.spec) { result in
            callback(result.map { DataSnapshot(ref: ref, node: $0, index: index) }.mapError(DatabaseErrors.error))
        }
    }

    @discardableResult
    private func listen(
        _ eventType: DataEventType,
        once: Bool,
        onEvent: @escaping (DataSnapshot, String?) -> Void,
        onCancel: ((any Error) -> Void)?
    ) -> DatabaseHandle {
        self.database.repo.addListener(
            self, eventType: eventType, once: once, onEvent: AppCallback(onEvent),
            onCancel: onCancel.map(AppCallback.init))
    }
}
