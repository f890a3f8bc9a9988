public import HearthCore

/// One change a client asked for, before the server resolves its server values.
///
/// Every Firebase write reduces to a list of these: `set` and `remove` are one `.set`, a multi-path update is one
/// `.set` per key, and writing `…/.priority` is a `.setPriority`.
public enum Mutation: Sendable {
    case set(Path, WriteValue)
    case setPriority(Path, WriteValue)

    public var path: Path {
        switch self {
        case .set(let path, _), .setPriority(let path, _): path
        }
    }
}

/// A mutation with every server value replaced by its concrete value: what the log stores and replicas apply.
public enum ResolvedMutation: Sendable, Equatable {
    case set(Path, Node)
    case setPriority(Path, Priority?)

    public var path: Path {
        switch self {
        case .set(let path, _), .setPriority(let path, _): path
        }
    }

    /// Applies the mutation to a tree root with Firebase's set semantics.
    public func apply(to root: Node) -> Node {
        switch self {
        case .set(let path, let node): root.setting(node, at: path)
        case .setPriority(let path, let priority): root.settingPriority(priority, at: path)
        }
    }
}

/// A compare-and-set guard: the write applies only if the node at `path` currently has this Firebase hash
/// (`""` or REST's `null_etag` for an absent node).
public struct WriteCondition: Sendable, Equatable {
    public var path: Path
    public var expectedHash: String

    public init(path: Path, expectedHash: String) {
        self.path = path
        self.expectedHash = expectedHash
    }
}

/// What became of a write.
public enum WriteOutcome: Sendable {
    /// Durable, applied to the read view, and fanned out to listeners.
    case committed([ResolvedMutation])
    /// The condition did not hold; nothing was written. Carries the current value at the condition's path.
    case conditionFailed(current: Node)
}
