/// One client operation on a single register (one key) as a history records it: when it was invoked, when its
/// answer came back (nil when the answer was lost: it may or may not have taken effect), what it asked and what it
/// was told.
public struct RegisterOperation<Value: Hashable & Sendable>: Sendable {
    /// What the client asked, and what it was told.
    public enum Kind: Sendable {
        /// Read the register; `value` is what came back (nil: the register was empty).
        case read(Value?)
        /// Write `value`.
        case write(Value)
        /// Compare-and-set: write `new` if the register holds `expected`. `succeeded` is the answer; nil when lost.
        case compareAndSet(expected: Value?, new: Value?, succeeded: Bool?)
    }

    public var client: Int
    public var kind: Kind
    /// When the client invoked it (any monotonic unit).
    public var invokedAt: UInt64
    /// When its answer arrived; nil when the answer was lost.
    public var completedAt: UInt64?

    public init(client: Int, kind: Kind, invokedAt: UInt64, completedAt: UInt64?) {
        self.client = client
        self.kind = kind
        self.invokedAt = invokedAt
        self.completedAt = completedAt
    }

    /// Applies the operation to `state`: nil when the answer it got is impossible from `state`, otherwise the
    /// state after it (a lost answer allows every outcome).
    func step(from state: Value?) -> Value?? {
        switch self.kind {
        case .read(let value):
            return value == state ? .some(state) : nil
        case .write(let value):
            return .some(value)
        case .compareAndSet(let expected, let new, let succeeded):
            let matches = state == expected
            switch succeeded {
            case true?: return matches ? .some(new) : nil
            case false?: return matches ? nil : .some(state)
            case nil: return matches ? .some(new) : .some(state)
            }
        }
    }
}
