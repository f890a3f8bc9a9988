public import HearthCore

/// A mutation with every server value replaced by its concrete value: what the log stores and replicas apply.
public typealias ResolvedMutation = TreeEdit

/// What became of a write.
public enum WriteOutcome: Sendable {
    /// Durable, applied to the read view, and fanned out to listeners.
    case committed([ResolvedMutation])
    /// The condition did not hold; nothing was written. Carries the current value at the condition's path.
    case conditionFailed(current: Node)
}
