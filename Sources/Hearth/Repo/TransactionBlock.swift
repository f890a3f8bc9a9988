import HearthCore
import HearthSystem

/// An app's transaction block as the engine calls it: given a node, it hands the block a `MutableData` and reads
/// its decision, remembering the last value the block set that the database cannot store (the transaction then
/// aborts, and its completion gets that error).
final class TransactionBlock: @unchecked Sendable {
    private let block: (MutableData) -> TransactionResult
    private let location: Path
    private let error = Lock<DatabaseValueError?>(nil)

    init(_ block: @escaping (MutableData) -> TransactionResult, location: Path) {
        self.block = block
        self.location = location
    }

    /// The error of the last run, if it set a value the database cannot store.
    var lastError: DatabaseValueError? { self.error.withLock { $0 } }

    /// Runs the block on `node`: on the repo's queue, one run at a time.
    func run(_ node: Node) -> TransactionDecision {
        let data = MutableData(store: MutableDataStore(node: node, location: self.location), path: .root)
        let result = self.block(data)
        self.error.withLock { $0 = result.error }
        return result.decision
    }
}
