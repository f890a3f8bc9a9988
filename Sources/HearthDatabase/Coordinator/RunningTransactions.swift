import HearthSystem

/// The transactions a coordinator is running: each from before its first lock or prepare until its last part has
/// its decision logged or was released. A part prepared in a shard (or a read lock held there) whose transaction no
/// node's coordinator claims has lost its coordinator — it crashed, restarted, or gave up with an answer lost —
/// and the resolver may finish it at once instead of waiting out `IntentResolver.resolveAfter`.
package final class RunningTransactions: Sendable {
    private let running = Lock<Set<TransactionID>>([])

    /// Claims `transaction` for this coordinator.
    func begin(_ transaction: TransactionID) {
        self.running.withLock { _ = $0.insert(transaction) }
    }

    /// Gives up the claim: nothing of `transaction` waits on this coordinator any more.
    func end(_ transaction: TransactionID) {
        self.running.withLock { _ = $0.remove(transaction) }
    }

    /// Those of `transactions` this coordinator runs.
    package func claimed(among transactions: [TransactionID]) -> [TransactionID] {
        self.running.withLock { running in transactions.filter { running.contains($0) } }
    }

    /// How many transactions run now.
    var count: Int { self.running.withLock { $0.count } }
}
