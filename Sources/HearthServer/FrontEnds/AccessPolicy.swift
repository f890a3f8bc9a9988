public import HearthCore

/// What a client is trying to do, handed to the access policy on every request path (REST, SSE, wire protocol,
/// onDisconnect) before anything is read or written.
public struct AccessRequest: Sendable {
    public enum Operation: Sendable { case read, write }
    public var operation: Operation
    public var namespace: String
    public var path: Path
    /// The credential the client presented (`auth=`/`access_token=`/`Authorization: Bearer`), if any.
    public var credential: String?

    public init(operation: Operation, namespace: String, path: Path, credential: String?) {
        self.operation = operation
        self.namespace = namespace
        self.path = path
        self.credential = credential
    }
}

/// The seam where security rules and auth slot in: every front end asks it before reading or writing.
public protocol AccessPolicy: Sendable {
    func allows(_ request: AccessRequest) -> Bool
}

/// The policy until security rules exist: everyone may read and write everything (Firebase's "test mode").
public struct OpenAccessPolicy: AccessPolicy {
    public init() {}
    public func allows(_ request: AccessRequest) -> Bool { true }
}
