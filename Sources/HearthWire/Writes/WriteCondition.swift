public import HearthCore

/// A compare-and-set guard: the write applies only if the node at `path` currently has this Firebase hash
/// (`""` or REST's `null_etag` for an absent node).
///
/// REST sends it as `if-match`, the realtime protocol as a put's `h`; transactions in every SDK rely on it.
public struct WriteCondition: Sendable, Equatable {
    public var path: Path
    public var expectedHash: String

    public init(path: Path, expectedHash: String) {
        self.path = path
        self.expectedHash = expectedHash
    }
}
