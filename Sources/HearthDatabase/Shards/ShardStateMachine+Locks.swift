import HearthCore
import HearthWire

/// The one place that changes a shard's prepared intents and read locks, keeping the lock table in step.
extension ShardStateMachine {
    /// True when a prepared or read-locking transaction other than `except` holds a path that conflicts with
    /// `mutations` (increments of one counter do not conflict) or overlaps `reads`.
    /// - Complexity: O(p × depth) for p paths, whatever the number of transactions in flight.
    func isLocked(namespace: String, mutations: [Mutation], reads: [Path], except: TransactionID?) -> Bool {
        self.locks.blocks(namespace: namespace, mutations: mutations, reads: reads, except: except)
    }

    mutating func addIntent(_ transaction: TransactionID, _ intent: ShardIntent) {
        self.intents[transaction] = intent
        let holds =
            intent.write.mutations.map { mutation -> (Path, ShardLockTable.Hold) in
                (mutation.path, mutation.commutingIncrementDelta == nil ? .write : .increment)
            } + intent.guards.map { ($0, .read) }
        self.locks.hold(.init(transaction: transaction, isRead: false), namespace: intent.write.namespace, paths: holds)
    }

    mutating func removeIntent(_ transaction: TransactionID) -> ShardIntent? {
        self.locks.release(.init(transaction: transaction, isRead: false))
        return self.intents.removeValue(forKey: transaction)
    }

    mutating func setReadLock(_ transaction: TransactionID, _ lock: ShardLock) {
        self.readLocks[transaction] = lock
        self.locks.hold(
            .init(transaction: transaction, isRead: true), namespace: lock.namespace,
            paths: lock.paths.map { ($0, .read) })
    }

    mutating func clearReadLock(_ transaction: TransactionID) {
        // Most transactions never read under a lock: then the id is not hashed to find that out.
        guard !self.readLocks.isEmpty, self.readLocks.removeValue(forKey: transaction) != nil else { return }
        self.locks.release(.init(transaction: transaction, isRead: true))
    }
}
