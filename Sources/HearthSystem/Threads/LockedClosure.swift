/// A closure to keep as (part of) a `Lock`'s state: `Lock<LockedClosure<@Sendable (X) -> Void>?>`, read with
/// `withLock { $0 }?.call(x)`.
///
/// A closure, or a tuple of closures, stored as a lock's state directly is wrapped in one more reabstraction thunk
/// every time `withLock` hands the state to its body and takes it back, so each read of it is slower than the last
/// and the chain of thunks grows until a call overflows the stack (10,000 reads of an optional closure: 0.6 s; the
/// same through this struct: 0.1 ms). A struct is handed out as it is stored.
public struct LockedClosure<Function: Sendable>: Sendable {
    /// The closure.
    public let call: Function

    /// Keeps `call`.
    public init(_ call: Function) {
        self.call = call
    }
}
