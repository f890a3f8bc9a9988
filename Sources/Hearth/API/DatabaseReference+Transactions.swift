import Foundation
import HearthCore

/// Transactions, as in FirebaseDatabase: the block runs on the value the client knows (perhaps none at first) and
/// returns what to write; when the server holds something else, the block runs again on that, up to 25 times.
/// The block runs on the library's own queue and must not block or touch the app's state without care.
extension DatabaseReference {
    public func runTransactionBlock(_ block: @escaping (MutableData) -> TransactionResult) {
        self.runTransaction(block, completion: nil, applyLocally: true)
    }

    public func runTransactionBlock(
        _ block: @escaping (MutableData) -> TransactionResult,
        andCompletionBlock completionBlock: @escaping ((any Error)?, Bool, DataSnapshot?) -> Void
    ) {
        self.runTransaction(block, completion: AppCallback(completionBlock), applyLocally: true)
    }

    /// With `localEvents` false, listeners see only the value the server took, not each attempt; a nil
    /// `completionBlock` means no one hears the outcome (a failure is logged).
    public func runTransactionBlock(
        _ block: @escaping (MutableData) -> TransactionResult,
        andCompletionBlock completionBlock: (((any Error)?, Bool, DataSnapshot?) -> Void)?,
        withLocalEvents localEvents: Bool
    ) {
        let completion = completionBlock.map { AppCallback<((any Error)?, Bool, DataSnapshot?)>($0) }
        self.runTransaction(block, completion: completion, applyLocally: localEvents)
    }

    /// Returns whether the transaction committed and the value it ended on; throws when it failed.
    @discardableResult
    public func runTransactionBlock(_ block: @escaping (MutableData) -> TransactionResult) async throws -> (
        Bool, DataSnapshot
    ) {
        try await withCheckedThrowingContinuation { continuation in
            self.runTransaction(
                block,
                completion: AppCallback { error, committed, snapshot in
                    if let error {
                        continuation.resume(throwing: error)
                    } else {
                        continuation.resume(returning: (committed, snapshot ?? DataSnapshot(ref: self, node: .empty)))
                    }
                },
                applyLocally: true
            )
        }
    }

    private func runTransaction(
        _ block: @escaping (MutableData) -> TransactionResult,
        completion: AppCallback<((any Error)?, Bool, DataSnapshot?)>?,
        applyLocally: Bool
    ) {
        let repo = self.database.repo
        let path = self.path
        let updater = TransactionBlock(block, location: path)
        repo.runTransaction(at: path, applyLocally: applyLocally, update: { updater.run($0) }) { outcome in
            let result: ((any Error)?, Bool, DataSnapshot?)
            switch outcome {
            case .committed(let node): result = (nil, true, DataSnapshot(ref: self, node: node))
            case .aborted(let node):
                result = (updater.lastError.map(DatabaseErrors.error), false, DataSnapshot(ref: self, node: node))
            case .failed(let error): result = (DatabaseErrors.error(error), false, nil)
            }
            if let completion {
                completion(result)
            } else if let error = result.0 {
                DatabaseLog.always("runTransactionBlock at \(path) failed: \(error.localizedDescription)")
            }
        }
    }
}
