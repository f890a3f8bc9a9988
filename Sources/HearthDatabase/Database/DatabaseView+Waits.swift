import HearthSystem

extension DatabaseView {
    /// Who waits for what the view shows, and how far each shard is shown, under a lock of its own: a write waiting
    /// for its entries registers here without waiting for the apply that holds the view's `state` (a pool thread
    /// blocked on it is a core taken from every other session, and `whenShown` runs on the loop's turn).
    ///
    /// The view's two locks are ordered by this type's shape, not by prose: every critical section of this lock is
    /// one of the methods below, which take values, update `ViewWaiters` and the shown indexes, and hand back the
    /// waiters to resume, which the caller resumes after the lock is released. None takes a closure to run under the
    /// lock or calls out (the waiters it keeps are resumed only by callers, outside it), so no thread can hold this
    /// lock while it waits for another:
    /// it is always the innermost lock, `state` then `waits` is the only order in which both are ever held, and a
    /// thread waiting here waits only for another's few lines of bookkeeping, never for an apply.
    final class Waits: Sendable {
        private struct Content {
            var waiters = ViewWaiters<Waiter>()
            /// Per shard: every entry up to here is applied AND handed to its listeners (the feed's applied index
            /// lags into this only after the listeners ran, so nobody is answered before its listeners heard).
            var notifiedIndex: [UInt64]
            var isClosed = false
        }

        private let content: Lock<Content>

        /// Nothing waits yet; per shard, entries through `notifiedIndex[shard]` are shown.
        init(notifiedIndex: [UInt64]) {
            self.content = Lock(Content(notifiedIndex: notifiedIndex))
        }

        /// Entries through `notifiedIndex[shard]` are shown (recovered state installed at startup).
        func load(notifiedIndex: [UInt64]) {
            self.content.withLock { $0.notifiedIndex = notifiedIndex }
        }

        /// Registers `waiter` until every shard's entries through `indexes[shard]` are shown (it is resumed when the
        /// first of them not shown yet is; `whenShown` then checks the others again). Returns how the wait ends
        /// at once instead, when it does: `.shown` when every one is shown already, `.closed` after `close()`.
        func wait(_ waiter: Waiter, untilShown indexes: [Int: UInt64]) -> WaitEnd? {
            self.content.withLock { content in
                if content.isClosed { return .closed }
                guard let (shard, index) = indexes.first(where: { content.notifiedIndex[$0.key] < $0.value }) else {
                    return .shown
                }
                content.waiters.wait(waiter, shard: shard, index: index)
                return nil
            }
        }

        /// Registers `waiter` until `shard`'s replicated log is received through `position` and what was received
        /// by then is shown, or until `deadline`; `received` is the shard's position and feed index as the caller
        /// read them under `state`, which later receipts only raise (`received(shard:position:index:)`). Returns how
        /// the wait ends at once instead, when it does.
        func wait(
            _ waiter: Waiter, shard: Int, position: UInt64, received: (position: UInt64, index: UInt64),
            deadline: ContinuousClock.Instant
        ) -> WaitEnd? {
            self.content.withLock { content in
                if content.isClosed { return .closed }
                if received.position >= position {
                    if content.notifiedIndex[shard] >= received.index { return .shown }
                    content.waiters.wait(waiter, shard: shard, index: received.index, deadline: deadline)
                } else {
                    content.waiters.wait(waiter, shard: shard, position: position, deadline: deadline)
                }
                return nil
            }
        }

        /// `shard`'s replicated log was received through `position`, its entries through `index`: the waits for a
        /// position at or below it now wait for `index` to be shown.
        func received(shard: Int, position: UInt64, index: UInt64) {
            self.content.withLock { $0.waiters.received(shard: shard, position: position, index: index) }
        }

        /// Every shard shows its entries through `shown[shard]`: takes the waits that are over, to resume.
        func shown(_ shown: [UInt64]) -> [Waiter] {
            self.content.withLock { content in
                content.notifiedIndex = shown
                return content.waiters.shown(shown)
            }
        }

        /// Takes the waits whose deadline is at or before `now`, to end as expired.
        func expired(now: ContinuousClock.Instant) -> [Waiter] {
            self.content.withLock { $0.waiters.expired(now: now) }
        }

        /// Fails every later wait and takes every current one, to end as closed.
        func close() -> [Waiter] {
            self.content.withLock { content in
                content.isClosed = true
                return content.waiters.removeAll()
            }
        }

        /// What each shard has shown, by shard index.
        var notifiedIndex: [UInt64] { self.content.withLock { $0.notifiedIndex } }

        /// The shard indexes waited for, by shard.
        var awaitedIndexes: [Int: [UInt64]] { self.content.withLock { $0.waiters.awaitedIndexes } }

        /// How many waits are held.
        var count: Int { self.content.withLock { $0.waiters.count } }
    }
}
