import Foundation
import HearthCore
import HearthWire

/// Writing, as in FirebaseDatabase: each write shows in local events at once and is sent in order; its
/// completion block (on the callback queue) hears whether the server took it. A value the database cannot store
/// changes nothing: the completion gets the error (FirebaseDatabase raises an exception), and a write without one
/// logs it.
extension DatabaseReference {
    /// Writes `value` here (nil or `NSNull` removes the data).
    public func setValue(_ value: Any?) {
        self.setValue(value, andPriority: nil, completion: nil)
    }

    public func setValue(_ value: Any?, withCompletionBlock block: @escaping ((any Error)?, DatabaseReference) -> Void)
    {
        self.setValue(value, andPriority: nil, completion: AppCallback(block))
    }

    @discardableResult
    public func setValue(_ value: Any?) async throws -> DatabaseReference {
        try await self.awaiting { self.setValue(value, andPriority: nil, completion: $0) }
    }

    /// Writes `value` with `priority` (a number, a string, or nil for none).
    public func setValue(_ value: Any?, andPriority priority: Any?) {
        self.setValue(value, andPriority: priority, completion: nil)
    }

    public func setValue(
        _ value: Any?, andPriority priority: Any?,
        withCompletionBlock block: @escaping ((any Error)?, DatabaseReference) -> Void
    ) {
        self.setValue(value, andPriority: priority, completion: AppCallback(block))
    }

    @discardableResult
    public func setValue(_ value: Any?, andPriority priority: Any?) async throws -> DatabaseReference {
        try await self.awaiting { self.setValue(value, andPriority: priority, completion: $0) }
    }

    /// Removes the data here.
    public func removeValue() { self.setValue(nil) }

    public func removeValue(completionBlock block: @escaping ((any Error)?, DatabaseReference) -> Void) {
        self.setValue(nil, withCompletionBlock: block)
    }

    @discardableResult
    public func removeValue() async throws -> DatabaseReference {
        try await self.setValue(nil)
    }

    /// Sets the priority of the data here (a number, a string, or nil to clear it).
    public func setPriority(_ priority: Any?) {
        self.setPriority(priority, completion: nil)
    }

    public func setPriority(
        _ priority: Any?, withCompletionBlock block: @escaping ((any Error)?, DatabaseReference) -> Void
    ) {
        self.setPriority(priority, completion: AppCallback(block))
    }

    @discardableResult
    public func setPriority(_ priority: Any?) async throws -> DatabaseReference {
        try await self.awaiting { self.setPriority(priority, completion: $0) }
    }

    /// Writes every relative path in `values` (`"users/ada/name"` keys too) in one atomic write.
    public func updateChildValues(_ values: [AnyHashable: Any]) {
        self.updateChildValues(values, completion: nil)
    }

    public func updateChildValues(
        _ values: [AnyHashable: Any], withCompletionBlock block: @escaping ((any Error)?, DatabaseReference) -> Void
    ) {
        self.updateChildValues(values, completion: AppCallback(block))
    }

    @discardableResult
    public func updateChildValues(_ values: [AnyHashable: Any]) async throws -> DatabaseReference {
        try await self.awaiting { self.updateChildValues(values, completion: $0) }
    }

    typealias WriteCompletion = AppCallback<((any Error)?, DatabaseReference)>

    private func setValue(_ value: Any?, andPriority priority: Any?, completion: WriteCompletion?) {
        self.write("setValue", completion) { () throws(DatabaseValueError) in
            let written = try WriteValue.make(value, priority: priority, at: self.path)
            return { repo, done in repo.set(written, at: self.path, completion: done) }
        }
    }

    private func setPriority(_ priority: Any?, completion: WriteCompletion?) {
        self.write("setPriority", completion) { () throws(DatabaseValueError) in
            let parsed = try WriteValue.priority(priority, at: self.path)
            return { repo, done in repo.setPriority(parsed, at: self.path, completion: done) }
        }
    }

    private func updateChildValues(_ values: [AnyHashable: Any], completion: WriteCompletion?) {
        self.write("updateChildValues", completion) { () throws(DatabaseValueError) in
            let entries = try ChildValues.parse(values, at: self.path)
            return { repo, done in
                guard !entries.isEmpty else { return done(nil) }
                repo.update(entries, at: self.path, completion: done)
            }
        }
    }

    /// Checks a write (`prepare` throws for bad input), then hands it to the repo with a completion that reaches
    /// the app's block on the callback queue, or the log when there is none.
    func write(
        _ method: String,
        _ completion: WriteCompletion?,
        prepare: () throws(DatabaseValueError) ->
            @Sendable (Repo, @escaping @Sendable (WireProtocolError?) -> Void) -> Void
    ) {
        let repo = self.database.repo
        let done: @Sendable (NSError?) -> Void = { error in
            if let completion {
                completion((error, self))
            } else if let error {
                DatabaseLog.always("\(method) at \(self.path) failed: \(error.localizedDescription)")
            }
        }
        guard !DatabasePath.isInfo(self.path) else {
            let error = DatabaseValueError(
                "(\(method)) Cannot write to \(self.path): .info holds the client's own data.")
            repo.deliver { done(DatabaseErrors.error(error)) }
            return
        }
        do {
            let send = try prepare()
            send(repo) { error in done(error.map(DatabaseErrors.error)) }
        } catch {
            repo.deliver { done(DatabaseErrors.error(error)) }
        }
    }

    /// The `async` form of a write: resumes when the server takes it, throws its error otherwise.
    func awaiting(_ start: (WriteCompletion) -> Void) async throws -> DatabaseReference {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<DatabaseReference, any Error>) in
            start(
                AppCallback { error, ref in
                    if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: ref) }
                })
        }
    }
}
