public import Foundation

/// What a transaction block returns (FirebaseDatabase's `TransactionResult`): write the data it was given, as
/// changed, or give up. An `NSObject`, as FirebaseDatabase's is.
public final class TransactionResult: NSObject, Sendable {
    /// The value to write, taken when `success(withValue:)` was called; nil to abort.
    let decision: TransactionDecision
    /// A value the block set that the database cannot store.
    let error: DatabaseValueError?

    private init(decision: TransactionDecision, error: DatabaseValueError?) {
        self.decision = decision
        self.error = error
        super.init()
    }

    /// An aborted result, as FirebaseDatabase's `TransactionResult()` is.
    public override convenience init() {
        self.init(decision: .abort, error: nil)
    }

    /// Write `value`'s data (the `MutableData` the block was given, changed).
    @discardableResult
    public static func success(withValue value: MutableData) -> TransactionResult {
        let (written, error) = value.written
        guard let written else { return TransactionResult(decision: .abort, error: error) }
        return TransactionResult(decision: .commit(written), error: nil)
    }

    /// Give up: nothing is written and the completion block is told the transaction was not committed.
    @discardableResult
    public static func abort() -> TransactionResult {
        TransactionResult()
    }
}
