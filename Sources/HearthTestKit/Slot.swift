import HearthSystem

/// A value that closures created before it exists can reach later: a transport's frame handler made before the
/// service it feeds, a node's database swapped out across a restart. Thread-safe.
public final class Slot<Value: Sendable>: Sendable {
    private let value = Lock<Value?>(nil)

    public init() {}

    /// The value held now, if any.
    public var current: Value? { self.value.withLock { $0 } }

    /// Holds `newValue` (nil empties the slot).
    public func set(_ newValue: Value?) {
        self.value.withLock { $0 = newValue }
    }

    /// Empties the slot and returns what it held.
    public func take() -> Value? {
        self.value.withLock { $0.take() }
    }
}
