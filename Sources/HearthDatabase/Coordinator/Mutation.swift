public import HearthCore

/// A mutation with every server value replaced by its concrete value: what the log stores and replicas apply.
public enum ResolvedMutation: Sendable, Equatable {
    case set(Path, Node)
    case setPriority(Path, Priority?)

    public var path: Path {
        switch self {
        case .set(let path, _), .setPriority(let path, _): path
        }
    }

    /// Applies the mutation to a tree root with Firebase's set semantics, editing in place what only `root` holds.
    public func apply(to root: inout Node) {
        switch self {
        case .set(let path, let node): root.set(node, at: path)
        case .setPriority(let path, let priority): root.setPriority(priority, at: path)
        }
    }
}

/// What became of a write.
public enum WriteOutcome: Sendable {
    /// Durable, applied to the read view, and fanned out to listeners.
    case committed([ResolvedMutation])
    /// The condition did not hold; nothing was written. Carries the current value at the condition's path.
    case conditionFailed(current: Node)
}
