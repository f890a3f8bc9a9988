import Foundation
import HearthCore
import HearthWire

/// Writes the server makes when this client disconnects (presence), as in FirebaseDatabase. Each completion hears
/// whether the server queued the operation; the operation itself runs when the connection ends, however it ends.
extension DatabaseReference {
    public func onDisconnectSetValue(_ value: Any?) {
        self.onDisconnectSet(value, priority: nil, completion: nil)
    }

    public func onDisconnectSetValue(
        _ value: Any?, withCompletionBlock block: @escaping ((any Error)?, DatabaseReference) -> Void
    ) {
        self.onDisconnectSet(value, priority: nil, completion: AppCallback(block))
    }

    @discardableResult
    public func onDisconnectSetValue(_ value: Any?) async throws -> DatabaseReference {
        try await self.awaiting { self.onDisconnectSet(value, priority: nil, completion: $0) }
    }

    public func onDisconnectSetValue(_ value: Any?, andPriority priority: Any) {
        self.onDisconnectSet(value, priority: priority, completion: nil)
    }

    public func onDisconnectSetValue(
        _ value: Any?, andPriority priority: Any?,
        withCompletionBlock block: @escaping ((any Error)?, DatabaseReference) -> Void
    ) {
        self.onDisconnectSet(value, priority: priority, completion: AppCallback(block))
    }

    @discardableResult
    public func onDisconnectSetValue(_ value: Any?, andPriority priority: Any?) async throws -> DatabaseReference {
        try await self.awaiting { self.onDisconnectSet(value, priority: priority, completion: $0) }
    }

    public func onDisconnectRemoveValue() {
        self.onDisconnectSet(nil, priority: nil, completion: nil)
    }

    public func onDisconnectRemoveValue(completionBlock block: @escaping ((any Error)?, DatabaseReference) -> Void) {
        self.onDisconnectSet(nil, priority: nil, completion: AppCallback(block))
    }

    @discardableResult
    public func onDisconnectRemoveValue() async throws -> DatabaseReference {
        try await self.awaiting { self.onDisconnectSet(nil, priority: nil, completion: $0) }
    }

    public func onDisconnectUpdateChildValues(_ values: [AnyHashable: Any]) {
        self.onDisconnectUpdate(values, completion: nil)
    }

    public func onDisconnectUpdateChildValues(
        _ values: [AnyHashable: Any], withCompletionBlock block: @escaping ((any Error)?, DatabaseReference) -> Void
    ) {
        self.onDisconnectUpdate(values, completion: AppCallback(block))
    }

    @discardableResult
    public func onDisconnectUpdateChildValues(_ values: [AnyHashable: Any]) async throws -> DatabaseReference {
        try await self.awaiting { self.onDisconnectUpdate(values, completion: $0) }
    }

    /// Cancels every onDisconnect operation at or below this location.
    public func cancelDisconnectOperations() {
        self.onDisconnectCancel(completion: nil)
    }

    /// As `cancelDisconnectOperations()`, with `block` hearing whether the server took the cancel (nil: no one
    /// hears; an error is logged).
    public func cancelDisconnectOperations(completionBlock block: (((any Error)?, DatabaseReference) -> Void)?) {
        self.onDisconnectCancel(completion: block.map { WriteCompletion($0) })
    }

    @discardableResult
    public func cancelDisconnectOperations() async throws -> DatabaseReference {
        try await self.awaiting { self.onDisconnectCancel(completion: $0) }
    }

    private func onDisconnectSet(_ value: Any?, priority: Any?, completion: WriteCompletion?) {
        self.write("onDisconnectSetValue", completion) { () throws(DatabaseValueError) in
            let written = try WriteValue.make(value, priority: priority, at: self.path)
            let request = WireRequest.onDisconnectPut(path: self.path.description, data: written.jsonValue())
            return { repo, done in repo.onDisconnect(request) { done(Self.failure($0)) } }
        }
    }

    private func onDisconnectUpdate(_ values: [AnyHashable: Any], completion: WriteCompletion?) {
        self.write("onDisconnectUpdateChildValues", completion) { () throws(DatabaseValueError) in
            let entries = try ChildValues.parse(values, at: self.path)
            var data: [JSONKey: JSONValue] = [:]
            for (relative, value) in entries { data[JSONKey(relative.slashless)] = value.jsonValue() }
            let request = WireRequest.onDisconnectMerge(path: self.path.description, data: data)
            let isEmpty = data.isEmpty
            return { repo, done in
                guard !isEmpty else { return done(nil) }
                repo.onDisconnect(request) { done(Self.failure($0)) }
            }
        }
    }

    private func onDisconnectCancel(completion: WriteCompletion?) {
        self.write("cancelDisconnectOperations", completion) { () throws(DatabaseValueError) in
            let request = WireRequest.onDisconnectCancel(path: self.path.description)
            return { repo, done in repo.onDisconnect(request) { done(Self.failure($0)) } }
        }
    }

    private static func failure(_ response: WireResponse) -> WireProtocolError? {
        if case .failure(let error) = response { return error }
        return nil
    }
}
