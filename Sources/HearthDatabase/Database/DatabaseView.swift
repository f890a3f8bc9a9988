public import HearthCore
import HearthNet
import HearthSystem
package import HearthWire
import Synchronization

/// The node's read view: the whole tree of every namespace, as of the newest committed entries of every shard.
///
/// The shards' logs hand over committed entries on the log's commit thread; a `CommitFeed` orders them so that a
/// multi-shard transaction appears all at once, and each change reaches its listeners before anyone waiting for it
/// resumes (echo before acknowledgement). A read is an O(1) capture of a persistent root. Listener registration
/// happens under the same lock as applying, so a new listener sees every later change and none before.
///
/// Listeners are told outside the lock, in the order the changes were applied, although a cluster node's shards hand
/// over their entries from several threads at once: each change is queued under the lock as it is applied, and the
/// thread that finds nobody telling drains the queue, oldest first, while the others return at once.
public final class DatabaseView: Sendable {
    private typealias Notification = (change: CommittedChange, listeners: [any ChangeListener])
    /// What one apply produced, with the feed's applied index right after it.
    private typealias Applied = (notifications: [Notification], appliedIndex: [UInt64])

    private struct State {
        var data: ViewState
        var registry = ListenRegistry()
        /// Per shard, in a cluster: the position in the shard's replicated log (its Raft index) through which its
        /// entries were received.
        var positions: [UInt64]
        /// Changes applied and not yet handed to their listeners while another thread was telling, oldest first.
        var unpublished: [Applied] = []
        /// A thread is telling listeners (and drains `unpublished` before it stops).
        var isPublishing = false

        /// What one apply produced: handed back to tell at once when nobody is telling (the caller then drains the
        /// queue too), else queued for the thread that is.
        mutating func enqueue(_ notifications: [Notification]) -> [Applied]? {
            let applied = (notifications, self.data.feed.appliedIndex)
            guard !self.isPublishing else {
                self.unpublished.append(applied)
                return nil
            }
            self.isPublishing = true
            return [applied]
        }
    }

    /// How a wait for the view ended.
    enum WaitEnd {
        case shown
        case closed
        case expired
    }

    /// Who waits for the view: a suspended task, or a callback (`whenShown`) that runs on the thread that showed
    /// the entries, outside the view's locks.
    enum Waiter {
        case task(CheckedContinuation<WaitEnd, Never>)
        case callback(@Sendable (WaitEnd) -> Void)

        func end(_ end: WaitEnd) {
            switch self {
            case .task(let continuation): continuation.resume(returning: end)
            case .callback(let body): body(end)
            }
        }
    }

    private let state: Lock<State>
    /// Who waits for what is shown: a lock that is always taken last (`DatabaseView.Waits`).
    private let waits: Waits
    /// The maintained orders of indexed locations, kept up with every change before its listeners hear of it.
    package let indexes = QueryIndexes()
    /// Whether a batch of this many records makes a snapshot due, so the batch's end is worth capturing.
    private let wantsCapture: @Sendable (Int) -> Bool
    private let onApplied: @Sendable (Int, ViewSnapshot?) -> Void
    /// Set while the feed asks the write loop for its shards' sessions (`CommitFeed+Sessions.swift`); the loop
    /// clears it at the end of a turn and offers them (`takeSessionsRequest`, `offer(_:)`).
    private let sessionsWanted = Atomic(false)

    /// - Parameters:
    ///   - hashBuckets: the buckets the node's router hashes paths into (`ShardRouter.hashBuckets`) when it has more
    ///     than shards (a cluster that groups its shards); nil for one per shard.
    ///   - wantsCapture: asked after each batch with its record count, under the view's lock: whether a snapshot
    ///     is due, so `onApplied` should get what one would hold (capturing records the named writes that wait).
    ///   - onApplied: called after each batch with its record count and, when `wantsCapture` said so and the view
    ///     is a consistent cut, what a snapshot of it would hold (for snapshot scheduling).
    package init(
        shardCount: Int, hashBuckets: Int? = nil, wantsCapture: @escaping @Sendable (Int) -> Bool = { _ in false },
        onApplied: @escaping @Sendable (Int, ViewSnapshot?) -> Void = { _, _ in }
    ) {
        let feed = CommitFeed(appliedIndex: Array(repeating: 0, count: shardCount), hashBuckets: hashBuckets)
        self.state = Lock(
            State(
                data: ViewState(roots: [:], feed: feed, indexes: self.indexes),
                positions: Array(repeating: 0, count: shardCount)))
        self.waits = Waits(notifiedIndex: feed.appliedIndex)
        self.wantsCapture = wantsCapture
        self.onApplied = onApplied
    }

    /// The current root of a namespace.
    public func root(_ namespace: String) -> Node {
        self.state.withLock { $0.data.roots[namespace] ?? .empty }
    }

    /// The namespaces that hold data in this view (an emptied namespace leaves it).
    package func namespaces() -> Set<String> {
        self.state.withLock { Set($0.data.roots.keys) }
    }

    /// Installs recovered state (startup only).
    func load(_ data: ViewState) {
        self.indexes.dropAll()
        self.state.withLock {
            $0.data = data
            $0.data.indexes = self.indexes
        }
        self.waits.load(notifiedIndex: data.feed.appliedIndex)
    }

    /// What a snapshot would hold now, or nil while a transaction is half shown.
    func capture() -> ViewSnapshot? {
        self.state.withLock { $0.data.capture() }
    }

    /// Every namespace's root and, per shard, the index through which every entry is shown, taken at one moment:
    /// a consistent cut (the feed never shows part of a transaction), in O(1). What a backup holds.
    package func backupCut() -> (roots: [String: Node], appliedIndex: [UInt64]) {
        self.state.withLock { ($0.data.roots, $0.data.feed.appliedIndex) }
    }

    /// Whether a shard's committed entries, as far as this view received them, applied the write `origin` names.
    package func hasApplied(_ origin: WriteOrigin) -> Bool {
        self.state.withLock { state in state.data.feed.sessions().contains { $0.contains(origin) } }
    }

    /// Drops decisions that no prepared transaction needs any more (after a snapshot kept the ones that do).
    func pruneDecisions() {
        self.state.withLock { $0.data.feed.pruneDecisions() }
    }

    /// Takes a batch of committed entries (log records up to `sequence`) as the log kept them, in runs in commit
    /// order, applies what became ready, tells the listeners, then resumes the waiters whose entries are shown.
    func receive(_ runs: [[ShardApplied]], through sequence: UInt64) {
        let count = runs.reduce(0) { $0 + $1.count }
        let (applied, snapshot) = self.state.withLock { state in
            let notifications = state.data.receive(runs: runs, registry: state.registry)
            state.data.logSequence = sequence
            if state.data.feed.asksForSessions() { self.sessionsWanted.store(true, ordering: .relaxed) }
            return (state.enqueue(notifications), self.wantsCapture(count) ? state.data.capture() : nil)
        }
        if let applied { self.publish(applied) }
        self.onApplied(count, snapshot)
    }

    /// From now on the feed asks the write loop for its shards' sessions instead of recording every named write
    /// itself (`CommitFeed+Sessions.swift`): the loop calls `takeSessionsRequest` at the end of every turn, and
    /// `offer(_:)` when it says so. Called once the loop is wired, after `load`.
    func takeSessionsFromLoop() {
        self.state.withLock { $0.data.feed.takesOffers = true }
    }

    /// Whether the feed asked for the shards' sessions since this last said so (the write loop asks at the end of
    /// each turn; one relaxed load when nothing was asked).
    func takeSessionsRequest() -> Bool {
        self.sessionsWanted.load(ordering: .relaxed) && self.sessionsWanted.exchange(false, ordering: .relaxed)
    }

    /// Takes every shard's sessions with the index its machine stood at, at the end of a turn of the write loop,
    /// before that turn's entries are handed on: the feed puts them in place of its own where it has received
    /// exactly that far (`CommitFeed.offer(_:)`).
    func offer(_ sessions: [CommitFeed.SessionsOffer]) {
        self.state.withLock { $0.data.feed.offer(sessions) }
    }

    /// Takes a batch of one shard's committed entries, received through `position` of the shard's replicated log
    /// (which `capture(shard:)` reports with a snapshot), and shows what became ready.
    package func receive(_ batch: [ShardApplied], shard: Int, position: UInt64) {
        let applied = self.state.withLock { state in
            let notifications = state.data.receive(batch, registry: state.registry)
            state.positions[shard] = max(state.positions[shard], position)
            let (position, index) = (state.positions[shard], state.data.feed.received[shard])
            self.waits.received(shard: shard, position: position, index: index)
            return state.enqueue(notifications)
        }
        if let applied { self.publish(applied) }
    }

    /// Takes a shard's snapshot, through `position` of the shard's replicated log, in place of the entries it
    /// covers; its state is shown once every other shard has caught up with it (`CommitFeed+Restore.swift`), and
    /// listeners hear what it changed.
    package func restore(_ snapshot: ShardSnapshot, position: UInt64) {
        let applied = self.state.withLock { state in
            let notifications = state.data.restore(snapshot, registry: state.registry)
            let shard = snapshot.machine.shard
            state.positions[shard] = position
            let index = state.data.feed.received[shard]
            self.waits.received(shard: shard, position: position, index: index)
            return state.enqueue(notifications)
        }
        if let applied { self.publish(applied) }
    }

    /// A snapshot of `shard` cut from the view now, with the position of the shard's replicated log it reflects;
    /// nil while one cannot be cut (a transaction touching the shard is half received, or a snapshot waits).
    package func capture(shard: Int) -> (capture: ShardCapture, position: UInt64)? {
        self.state.withLock { state in state.data.capture(shard: shard).map { ($0, state.positions[shard]) } }
    }

    /// The last entry of `shard` the view has received (shown, queued, or covered by a snapshot it holds): a snapshot
    /// handed to `restore` must reach at least this far.
    package func receivedIndex(shard: Int) -> UInt64 {
        self.state.withLock { $0.data.feed.received[shard] }
    }

    /// The shards whose snapshot waits for the other shards to catch up with it before it is shown.
    package var shardsWaitingForSnapshot: [Int] {
        self.state.withLock { $0.data.feed.restores.keys.sorted() }
    }

    /// Tells the listeners of `first`, then of whatever other threads queued meanwhile, oldest first, resuming after
    /// each round the waiters whose entries are now shown; returns once nothing is left to tell.
    private func publish(_ first: [Applied]) {
        var pending = first
        while let shown = pending.last?.appliedIndex {
            let notifications = pending.flatMap(\.notifications)
            // Several changes at once: each connection's share of all of them goes out in one send at the end. One
            // change: the reactor starts sending while the rest of the listeners hear it.
            if notifications.count > 1 {
                FlushBatch.collecting { Self.tell(notifications) }
            } else {
                Self.tell(notifications)
            }
            let resumed = self.waits.shown(shown)
            pending = self.state.withLock { state in
                defer { state.unpublished = [] }
                if state.unpublished.isEmpty { state.isPublishing = false }
                return state.unpublished
            }
            // What the resumed waiters answer (every write of each turn now shown) reaches each reactor in one hand-off.
            if !resumed.isEmpty { FlushBatch.collecting { for waiter in resumed { waiter.end(.shown) } } }
        }
    }

    private static func tell(_ notifications: [Notification]) {
        for (change, listeners) in notifications {
            for listener in listeners { listener.changed(change) }
        }
    }

    /// Returns once every entry of `shard` up to `index` is shown: its changes applied and handed to every listener.
    /// - Throws: `DatabaseClosedError` when the view closes first.
    func waitUntilApplied(shard: Int, through index: UInt64) async throws {
        let end = await withCheckedContinuation { (continuation: CheckedContinuation<WaitEnd, Never>) in
            if let immediate = self.waits.wait(.task(continuation), untilShown: [shard: index]) {
                continuation.resume(returning: immediate)
            }
        }
        if end != .shown { throw DatabaseClosedError() }
    }

    /// Calls `body` once every shard's entries through `indexes[shard]` are shown (applied and handed to every
    /// listener), or with `.closed` when the view closes first: at once when they are, else on the thread that shows
    /// the last of them, outside the view's locks (`waitUntilApplied` for many shards at once, as a callback).
    func whenShown(_ indexes: [Int: UInt64], _ body: @escaping @Sendable (WaitEnd) -> Void) {
        let waiter = Waiter.callback { end in
            guard end == .shown else { return body(end) }
            self.whenShown(indexes, body)
        }
        if let immediate = self.waits.wait(waiter, untilShown: indexes) { body(immediate) }
    }

    /// Returns true once `shard`'s replicated log has been received through `position` (a Raft index) and
    /// everything received by then is shown: applied and handed to every listener. A read served after it reflects
    /// every entry of the shard's log through `position`. Returns false when `deadline` passed first
    /// (`expireWaits(now:)`).
    /// - Throws: `DatabaseClosedError` when the view closes first.
    package func waitUntilShown(shard: Int, position: UInt64, deadline: ContinuousClock.Instant) async throws -> Bool {
        let end = await withCheckedContinuation { (continuation: CheckedContinuation<WaitEnd, Never>) in
            let immediate: WaitEnd? = self.state.withLock { state in
                self.waits.wait(
                    .task(continuation), shard: shard, position: position,
                    received: (state.positions[shard], state.data.feed.received[shard]), deadline: deadline)
            }
            if let immediate { continuation.resume(returning: immediate) }
        }
        switch end {
        case .shown: return true
        case .expired: return false
        case .closed: throw DatabaseClosedError()
        }
    }

    /// Ends the waits whose deadline is at or before `now` (the node's timer calls it).
    package func expireWaits(now: ContinuousClock.Instant) {
        let expired = self.waits.expired(now: now)
        for waiter in expired { waiter.end(.expired) }
    }

    /// What each shard has shown, by shard index (for a stuck wait's diagnosis).
    var shownIndexes: [UInt64] { self.waits.notifiedIndex }

    /// Per shard, the first entry its feed holds back and why (for a stuck wait's diagnosis).
    var heldEntries: [Int: String] { self.state.withLock { $0.data.feed.heldEntries } }

    /// The shard indexes writes wait to see shown, by shard (for a stuck wait's diagnosis).
    var awaitedIndexes: [Int: [UInt64]] { self.waits.awaitedIndexes }

    /// Tasks waiting for the view to show something (`waitUntilApplied`, `waitUntilShown`).
    var waitingCount: Int { self.waits.count }

    /// Fails every current and future wait (the log stopped).
    package func close() {
        for waiter in self.waits.close() { waiter.end(.closed) }
    }

    /// Registers a listener and returns the namespace root it starts from, atomically.
    package func addListener(_ listener: any ChangeListener) -> Node {
        self.state.withLock { state in
            state.registry.add(listener, after: state.data.sequence)
            return state.data.roots[listener.namespace] ?? .empty
        }
    }

    package func removeListener(_ listener: any ChangeListener) {
        self.state.withLock { $0.registry.remove(listener) }
    }

    package var listenerCount: Int { self.state.withLock { $0.registry.count } }

    /// Calls `body` for every listener (keep-alives); outside the lock.
    package func forEachListener(_ body: (any ChangeListener) -> Void) {
        var all: [any ChangeListener] = []
        self.state.withLock { $0.registry.forEach { all.append($0) } }
        for listener in all { body(listener) }
    }
}

/// The database stopped (shutdown, or its log failed) before a write could be confirmed.
public struct DatabaseClosedError: Error, Sendable, CustomStringConvertible {
    /// Makes the error; explicit so that the modules above this one can.
    package init() {}

    public var description: String {
        "The database stopped before the write was confirmed; it may or may not have been applied. Retry once the "
            + "node is back."
    }
}
