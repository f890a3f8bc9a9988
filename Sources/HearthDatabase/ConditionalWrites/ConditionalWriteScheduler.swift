package import HearthCore

/// Decides when each compare-and-set (REST's `PUT` with `if-match`, the realtime protocol's put with a hash) runs,
/// so that callers contending for one location take turns instead of racing.
///
/// firebase-admin's `transaction()` answers a `412` by retrying at once with the ETag it carried, and the SDKs answer
/// `datastale` by retrying at once on the value pushed before it, up to 25 times. Left to race, each round goes to
/// whichever retry reaches the server first, so one caller can lose 25 rounds in a row by chance (64 realtime
/// clients toggling one post: 396 of 600 transactions gave up in 5 s). Both front ends take turns here, with one lane per
/// contended location:
/// a compare-and-set runs at once when nothing holds the lane (so an uncontended one never waits), and otherwise waits
/// in line. The lane is held by a running compare-and-set, and by a caller answered `412` until its retry comes back
/// (within the retry window, which follows the gaps between `412`s and retries seen there as TCP's retransmission
/// timeout follows round trips); that retry then runs next. Waiting requests go in ticket order: a caller gets a
/// ticket at its first `412` and keeps it until it commits, so whoever has waited longest goes first, and a caller
/// typically needs one `412` (its request waited while others committed) and one retry. No request waits longer than
/// `maximumHold`; reads and unconditional writes never come here.
///
/// A `412` here is also a realtime `datastale`. Callers are known by their HTTP connection or their realtime session
/// (`WireSession.caller`). Python's `requests` shares one connection pool among threads, so a
/// retry sometimes comes on another connection: the retry awaited on a connection that is next used for an ETag read
/// (a new transaction's first step) is orphaned, and handed to the compare-and-set with its ETag that came, or comes
/// next, without a ticket on a connection that did not just read. Only locations with something running, waiting or
/// remembered are kept, each caller only until it has been idle for `memory`; closed connections are forgotten.
///
/// A pure value: events come in with the time, and the answers name the held requests to run now.
package struct ConditionalWriteScheduler {
    /// The bounds of waiting and remembering.
    package struct Settings: Sendable {
        /// How long after a `412` the caller's retry is waited for before others may go ahead of it: the mean gap
        /// between a `412` and its retry seen at the location plus four deviations, within these bounds.
        var retryWindow = Duration.milliseconds(10)...Duration.milliseconds(250)
        /// The longest a compare-and-set is held. Its turn normally comes sooner (a turn takes a write and, after a
        /// `412`, a retry); this only bounds the wait when the lane stalls or very many callers contend. A held
        /// request that runs at this bound races the lane, so it must exceed a full line's wait where commits are
        /// slow: at 500 ms, 21 callers per node of a 3-node cluster (about 100 ms a turn) mostly raced, and 3–6 of
        /// 400 transactions gave up in 10 s; at 2 s, 0–1, with 40 % fewer retries.
        package var maximumHold = Duration.seconds(2)
        /// How long a caller, and a location, is remembered after its last request.
        var memory = Duration.seconds(2)
        /// Most callers remembered per location; the least recently seen are forgotten first.
        var maximumCallers = 1024
    }

    /// The location callers compare-and-set.
    package struct Target: Hashable, Sendable {
        package var namespace: String
        package var path: Path

        /// Makes the value from its parts: the memberwise initializer, for the modules above this one.
        package init(namespace: String, path: Path) {
            self.namespace = namespace
            self.path = path
        }
    }

    /// What a compare-and-set should do on arrival.
    enum Admission: Equatable {
        /// Write now.
        case run(UInt64)
        /// Wait until `answered`, `tick` or `connectionClosed` names this request.
        case hold(UInt64)
    }

    /// How a compare-and-set ended.
    package enum Answer: Equatable {
        case committed
        /// A `412`, carrying this ETag.
        case conditionFailed(etag: String)
        /// An error; the caller keeps its place.
        case failed
    }

    let settings: Settings
    private(set) var queues: [Target: TargetQueue] = [:]
    /// Compare-and-sets running (answered or not, until forgotten) per group of locations — a cluster member's
    /// shards — kept as the queues change, so a handover's drain reads its shard's count without a scan.
    private var runningByGroup: [Int: Int] = [:]
    private var targets: [UInt64: Target] = [:]
    private var lastRequest: UInt64 = 0
    private var lastTicket: UInt64 = 0

    init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// A compare-and-set expecting `etag` arrived on `connection`; `paused` when its location's shard is being
    /// handed over (`pause(where:)`); `group` the location's shard, whose running compare-and-sets are counted.
    mutating func arrive(
        connection: UInt64, target: Target, etag: String, now: ContinuousClock.Instant, paused: Bool = false,
        group: Int? = nil
    ) -> Admission {
        self.lastRequest += 1
        let id = self.lastRequest
        self.targets[id] = target
        var queue = self.queues[target] ?? TargetQueue(group: group)
        if paused { queue.isPaused = true }
        let held = queue.arrive(id, connection: connection, etag: etag, now: now, settings: self.settings)
        self.store(target, queue)
        return held ? .hold(id) : .run(id)
    }

    /// `connection` read `target` with its ETag: the start of a new transaction.
    mutating func read(connection: UInt64, target: Target, now: ContinuousClock.Instant) {
        self.queues[target]?.read(connection: connection, now: now, settings: self.settings)
    }

    /// Request `id` was answered; returns the held requests to run now.
    mutating func answered(_ id: UInt64, _ answer: Answer, now: ContinuousClock.Instant) -> [UInt64] {
        guard let target = self.targets.removeValue(forKey: id), var queue = self.queues[target] else { return [] }
        self.lastTicket += 1
        queue.answered(id, answer, newTicket: self.lastTicket, now: now)
        return self.settle(target, queue, now: now)
    }

    /// Time passed: returns the held requests whose wait is over.
    mutating func tick(now: ContinuousClock.Instant) -> [UInt64] {
        var released: [UInt64] = []
        for (target, queue) in self.queues {
            released += self.settle(target, queue, now: now)
        }
        return released
    }

    /// `connection` closed: forgets it, and returns the held requests that no longer wait for it — its own (let go
    /// without the lane: nobody will answer them) and those its running one kept waiting.
    mutating func connectionClosed(_ connection: UInt64, now: ContinuousClock.Instant) -> [UInt64] {
        var released: [UInt64] = []
        for (target, var queue) in self.queues where queue.callers[connection] != nil {
            let running = Set(queue.running.keys)
            let dropped = queue.forget(connection)
            for id in dropped + running.subtracting(queue.running.keys) { self.targets[id] = nil }
            released += dropped + self.settle(target, queue, now: now)
        }
        return released
    }

    /// Pauses the locations `matches` picks: what runs there finishes, nothing new starts (a request held
    /// `maximumHold` still does) until `resume(where:now:)`. A shard's leader pauses its locations before it hands the
    /// shard over, so no compare-and-set is cut off halfway by the handover.
    mutating func pause(where matches: (Target) -> Bool) {
        for target in self.queues.keys where matches(target) { self.queues[target]?.isPaused = true }
    }

    /// Ends the pause of the locations `matches` picks; returns the held requests to run now.
    mutating func resume(where matches: (Target) -> Bool, now: ContinuousClock.Instant) -> [UInt64] {
        var released: [UInt64] = []
        for (target, var queue) in self.queues where queue.isPaused && matches(target) {
            queue.isPaused = false
            released += self.settle(target, queue, now: now)
        }
        return released
    }

    /// Another node now leads the shard of the locations `matches` picks: the lines there are kept by its gate, and
    /// this one's only add their length to the wait (a request held here went one turn at a time through a lane
    /// whose running compare-and-sets were answered by the new leader, or waited out `maximumHold` while it stayed
    /// paused after a handover). The held requests there go at once without taking the lane — each is still checked
    /// by its hash, and a caller that loses the race takes its turn at the new leader's gate — and the pause ends.
    /// Returns them.
    mutating func moved(where matches: (Target) -> Bool) -> [UInt64] {
        var released: [UInt64] = []
        for (target, var queue) in self.queues where matches(target) {
            let held = Array(queue.held.keys)
            queue.held.removeAll()
            queue.isPaused = false
            for id in held { self.targets[id] = nil }
            released += held
            self.store(target, queue)
        }
        return released.sorted()
    }

    /// Compare-and-sets running at the locations of `group` (a shard): started and neither answered nor forgotten.
    /// One whose answer never comes counts until forgotten, `memory` after its hold ended; a handover's drain is
    /// bounded well below that.
    func runningCount(group: Int) -> Int { self.runningByGroup[group] ?? 0 }

    /// When, after `now`, `tick` next has something to do, if ever.
    func nextDeadline(after now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        self.queues.values.compactMap { $0.nextDeadline(after: now, self.settings) }.min()
    }

    /// Stores `queue` after releasing what may run and forgetting what is stale, or drops it when it holds nothing.
    private mutating func settle(_ target: Target, _ queue: TargetQueue, now: ContinuousClock.Instant) -> [UInt64] {
        var queue = queue
        let released = queue.release(now: now, settings: self.settings)
        let running = Set(queue.running.keys)
        queue.forgetIdle(now: now, settings: self.settings)
        for id in running.subtracting(queue.running.keys) { self.targets[id] = nil }
        self.store(target, queue)
        return released
    }

    /// Stores `target`'s queue, or drops it when it holds nothing, keeping its group's running count.
    private mutating func store(_ target: Target, _ queue: TargetQueue) {
        let before = self.queues[target]?.running.count ?? 0
        if let group = queue.group, queue.running.count != before {
            let count = (self.runningByGroup[group] ?? 0) - before + queue.running.count
            self.runningByGroup[group] = count > 0 ? count : nil
        }
        self.queues[target] = queue.isEmpty ? nil : queue
    }
}
