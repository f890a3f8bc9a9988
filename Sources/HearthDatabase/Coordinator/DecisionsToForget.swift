package import HearthSystem

/// Transactions whose every entry is committed, by anchor shard: their anchors may forget the decisions. The
/// coordinator collects them as writes complete and sends each anchor one `forget` entry for a batch
/// (`Coordinator.forgetFinishedDecisions`), so an anchor's decisions do not grow with every transaction it ever
/// anchored, and a busy anchor pays one small entry per batch rather than one per transaction.
///
/// A batch goes once it is `maxAge` ticks of the sending loop old or holds `maxBatch` transactions
/// (`takeDue()`). A `forget` entry costs a replicated star's whole round (a shard call to the anchor's leader, an
/// entry every replica logs and applies), and every node sends one per anchor it has batches for: sent every
/// 200 ms, they were a tenth of a three-node cluster's Raft entries per replicated star at 700–1,000 stars/s
/// (docs/benchmarks.md, "Issue 35 target 3: fewer entries per replicated star").
package final class DecisionsToForget: Sendable {
    /// One anchor's transactions not yet sent, and how many ticks the oldest of them has waited.
    private struct Batch {
        var transactions: [TransactionID] = []
        var age = 0
    }

    /// A batch goes after this many ticks of the sending loop (2 s at its 200 ms).
    static let maxAge = 10
    /// A batch goes at its next tick once it holds this many transactions, whatever its age (a `forget` entry of
    /// this many is 8 KiB).
    static let maxBatch = 1024

    private let pending = Lock<[Int: Batch]>([:])

    /// Notes that every entry of `transaction`, anchored in shard `anchor`, is committed.
    package func add(_ transaction: TransactionID, anchor: Int) {
        self.pending.withLock { $0[anchor, default: Batch()].transactions.append(transaction) }
    }

    /// Takes everything noted so far, by anchor.
    func take() -> [Int: [TransactionID]] {
        self.pending.withLock { pending in
            defer { pending.removeAll() }
            return pending.mapValues(\.transactions)
        }
    }

    /// One tick of the sending loop: every batch ages by one; takes those that are due (`maxAge` ticks old, or
    /// `maxBatch` transactions long), by anchor.
    func takeDue() -> [Int: [TransactionID]] {
        self.pending.withLock { pending in
            var due: [Int: [TransactionID]] = [:]
            for anchor in pending.keys {
                guard var batch = pending[anchor] else { continue }
                batch.age += 1
                if batch.age >= Self.maxAge || batch.transactions.count >= Self.maxBatch {
                    due[anchor] = batch.transactions
                    pending[anchor] = nil
                } else {
                    pending[anchor] = batch
                }
            }
            return due
        }
    }

    /// Transactions noted and not yet taken.
    var count: Int { self.pending.withLock { $0.values.reduce(0) { $0 + $1.transactions.count } } }
}

extension Coordinator {
    /// Every 200 ms of `clock`'s time, until cancelled, sends the anchors the batches of decisions to forget that
    /// are due (`DecisionsToForget.takeDue()`).
    package func forgetFinishedDecisionsUntilCancelled(clock: any NodeClock = .system) async {
        while (try? await clock.sleep(for: .milliseconds(200))) != nil {
            await self.forget(self.forgets.takeDue())
        }
    }

    /// Sends each anchor every decision it may forget, due or not.
    func forgetFinishedDecisions() async {
        await self.forget(self.forgets.take())
    }

    /// Sends each anchor the decisions it may forget. A batch the anchor's leader certainly did not take (no leader
    /// now) is queued again, to go with the next batch that is due; one whose answer was lost is dropped (a decision kept too long only costs
    /// memory, never correctness).
    private func forget(_ batches: [Int: [TransactionID]]) async {
        for (anchor, transactions) in batches.sorted(by: { $0.key < $1.key }) {
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
