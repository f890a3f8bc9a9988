/// Who waits for the read view to show something, per shard: a write's acknowledgement waits for the shard's entries
/// through an index (of the shard's own sequence) to be shown; a read behind a read barrier waits for the shard's
/// replicated log to be received through a position (a Raft index), and from then on for everything received by
/// then to be shown. Some waits have a deadline.
///
/// A pure value generic over what the view resumes (its continuations; tests use plain values). `DatabaseView` runs
/// it under its lock.
struct ViewWaiters<Token> {
    private struct Waiting {
        var token: Token
        var deadline: ContinuousClock.Instant?
    }

    /// By shard: waiting for the shard's entries through an index to be shown.
    private var byIndex: [Int: [(index: UInt64, waiting: Waiting)]] = [:]
    /// By shard: waiting for the shard's replicated log to be received through a position.
    private var byPosition: [Int: [(position: UInt64, waiting: Waiting)]] = [:]

    var isEmpty: Bool { self.byIndex.isEmpty && self.byPosition.isEmpty }

    /// The shard indexes waited for, by shard (for a stuck wait's diagnosis).
    var awaitedIndexes: [Int: [UInt64]] { self.byIndex.mapValues { $0.map(\.index) } }

    /// How many waits are held.
    var count: Int {
        self.byIndex.values.reduce(0) { $0 + $1.count } + self.byPosition.values.reduce(0) { $0 + $1.count }
    }

    /// Waits for `shard`'s entries through `index` to be shown.
    mutating func wait(_ token: Token, shard: Int, index: UInt64, deadline: ContinuousClock.Instant? = nil) {
        self.byIndex[shard, default: []].append((index, Waiting(token: token, deadline: deadline)))
    }

    /// Waits for `shard`'s replicated log to be received through `position`, then for what was received by then to
    /// be shown.
    mutating func wait(_ token: Token, shard: Int, position: UInt64, deadline: ContinuousClock.Instant?) {
        self.byPosition[shard, default: []].append((position, Waiting(token: token, deadline: deadline)))
    }

    /// `shard`'s replicated log was received through `position`, its entries through `index`: the waits for a
    /// position at or below it now wait for `index` to be shown.
    mutating func received(shard: Int, position: UInt64, index: UInt64) {
        guard let waiting = self.byPosition[shard], waiting.contains(where: { $0.position <= position }) else { return }
        for reached in waiting where reached.position <= position {
            self.byIndex[shard, default: []].append((index, reached.waiting))
        }
        let rest = waiting.filter { $0.position > position }
        self.byPosition[shard] = rest.isEmpty ? nil : rest
    }

    /// Every shard shows its entries through `shown[shard]`: takes the waits that are over.
    mutating func shown(_ shown: [UInt64]) -> [Token] {
        var over: [Token] = []
        for (shard, waiting) in self.byIndex {
            let notified = shown[shard]
            guard waiting.contains(where: { $0.index <= notified }) else { continue }
            over += waiting.filter { $0.index <= notified }.map(\.waiting.token)
            let rest = waiting.filter { $0.index > notified }
            self.byIndex[shard] = rest.isEmpty ? nil : rest
        }
        return over
    }

    /// Takes the waits whose deadline is at or before `now`.
    mutating func expired(now: ContinuousClock.Instant) -> [Token] {
        func isOver(_ waiting: Waiting) -> Bool { waiting.deadline.map { $0 <= now } ?? false }
        var over: [Token] = []
        for (shard, waiting) in self.byIndex where waiting.contains(where: { isOver($0.waiting) }) {
            over += waiting.filter { isOver($0.waiting) }.map(\.waiting.token)
            let rest = waiting.filter { !isOver($0.waiting) }
            self.byIndex[shard] = rest.isEmpty ? nil : rest
        }
        for (shard, waiting) in self.byPosition where waiting.contains(where: { isOver($0.waiting) }) {
            over += waiting.filter { isOver($0.waiting) }.map(\.waiting.token)
            let rest = waiting.filter { !isOver($0.waiting) }
            self.byPosition[shard] = rest.isEmpty ? nil : rest
        }
        return over
    }

    /// Takes every wait (the view closed).
    mutating func removeAll() -> [Token] {
        defer {
            self.byIndex = [:]
            self.byPosition = [:]
        }
        return self.byIndex.values.flatMap { $0.map(\.waiting.token) }
            + self.byPosition.values.flatMap { $0.map(\.waiting.token) }
    }
}
