package import HearthSystem

/// Transactions whose every entry is committed, by anchor shard: their anchors may forget the decisions. The
/// coordinator collects them as writes complete and sends each anchor one `forget` entry for a batch
/// (`Coordinator.forgetFinishedDecisions`), so an anchor's decisions do not grow with every transaction it ever
/// anchored, and a busy anchor pays one small entry per batch rather than one per transaction.
package final class DecisionsToForget: Sendable {
    private let pending = Lock<[Int: [TransactionID]]>([:])

    /// Notes that every entry of `transaction`, anchored in shard `anchor`, is committed.
    package func add(_ transaction: TransactionID, anchor: Int) {
        self.pending.withLock { $0[anchor, default: []].append(transaction) }
    }

    /// Takes everything noted so far, by anchor.
    func take() -> [Int: [TransactionID]] {
        self.pending.withLock { pending in
            defer { pending.removeAll() }
            return pending
        }
    }

    /// Transactions noted and not yet taken.
    var count: Int { self.pending.withLock { $0.values.reduce(0) { $0 + $1.count } } }
}

extension Coordinator {
    /// Sends the anchors their decisions to forget every 200 ms of `clock`'s time, until cancelled.
    package func forgetFinishedDecisionsUntilCancelled(clock: any NodeClock = .system) async {
        while (try? await clock.sleep(for: .milliseconds(200))) != nil {
            await self.forgetFinishedDecisions()
        }
    }

    /// Sends each anchor the decisions it may forget. A batch the anchor's leader certainly did not take (no leader
    /// now) is kept for the next call; one whose answer was lost is dropped (a decision kept too long only costs
    /// memory, never correctness).
    func forgetFinishedDecisions() async {
        for (anchor, transactions) in self.forgets.take().sorted(by: { $0.key < $1.key }) {
            do {
                _ = try await self.shards.forget(shard: anchor, transactions)
            } catch  where Self.certainlyNotCarriedOut(error) {
                for transaction in transactions { self.forgets.add(transaction, anchor: anchor) }
            } catch {
                continue
            }
        }
    }
}

/// A transaction was aborted before this coordinator could log its decision: a resolver found its parts prepared
/// for too long (this node was slow or cut off) and aborted it. Nothing of it was applied; it can be retried.
struct TransactionAbortedError: Error, Sendable, CustomStringConvertible {
    /// The decision the anchor already held (always an abort unless the anchor misbehaves).
    var commit: Bool

    var description: String {
        commit
            ? "The write's outcome is unknown: its shards recorded a decision this node did not make. Read the data "
                + "before retrying."
            : "The write was not applied: it took too long and was aborted while its shards waited for it. Retry it."
    }
}
