import HearthCore
import HearthTestKit

@testable import HearthDatabase
@testable import HearthServer

/// firebase-admin's `transaction()` (an ETag read, then compare-and-sets retried at once on each `412`) run by
/// several callers against `ConditionalWriteScheduler` and a model database holding one counter, in simulated time.
struct ContentionSimulation {
    enum Event {
        case readArrives(caller: Int, connection: UInt64)
        case writeArrives(caller: Int, connection: UInt64, etag: String)
        case writeExecutes(UInt64)
        case readAnswered(caller: Int, connection: UInt64, etag: String)
        case writeAnswered(caller: Int, connection: UInt64, failedWith: String?)
    }

    static let target = ConditionalWriteScheduler.Target(namespace: "ns", path: Path(keys: [Key(unchecked: "c")]))

    let sharedPool: Bool
    /// Whether compare-and-sets go through the scheduler; without it they race, as before it existed.
    let fair: Bool
    var scheduler = ConditionalWriteScheduler()
    var random: SeededRandom
    var now = ContinuousClock.now
    var events: [(time: ContinuousClock.Instant, order: Int, event: Event)] = []
    var scheduled = 0
    var version = 0
    /// Idle connections of the shared pool, most recently returned last.
    var pool: [UInt64] = []
    var lastConnection: UInt64 = 0
    /// The last request id handed out when the scheduler is bypassed.
    var lastRequest: UInt64 = 0
    var writes: [UInt64: (caller: Int, connection: UInt64, etag: String)] = [:]
    var remaining: [Int]
    var failures: [Int]
    /// `412`s per committed transaction.
    var losses: [Int] = []

    init(contenders: Int, transactions: Int, sharedPool: Bool, seed: UInt64, fair: Bool = true) {
        self.sharedPool = sharedPool
        self.fair = fair
        self.random = SeededRandom(seed: seed)
        self.remaining = Array(repeating: transactions, count: contenders)
        self.failures = Array(repeating: 0, count: contenders)
    }

    mutating func run() {
        for caller in self.remaining.indices { self.send(caller, etag: nil) }
        while let next = self.events.indices.min(by: {
            (self.events[$0].time, self.events[$0].order) < (self.events[$1].time, self.events[$1].order)
        }) {
            let (time, _, event) = self.events[next]
            if let deadline = self.scheduler.nextDeadline(after: self.now), deadline < time {
                self.now = deadline
                self.execute(self.scheduler.tick(now: deadline))
                continue
            }
            self.events.remove(at: next)
            self.now = max(self.now, time)
            self.handle(event)
        }
    }

    /// Whether, long after the last request, the scheduler has forgotten everything.
    mutating func schedulerIsEmptyOnceIdle() -> Bool {
        _ = self.scheduler.tick(now: self.now + .seconds(60))
        return self.scheduler.queues.isEmpty
    }

    private mutating func handle(_ event: Event) {
        switch event {
        case .readArrives(let caller, let connection):
            self.scheduler.read(connection: connection, target: Self.target, now: self.now)
            self.after(network: .readAnswered(caller: caller, connection: connection, etag: "v\(self.version)"))
        case .writeArrives(let caller, let connection, let etag) where !self.fair:
            self.lastRequest += 1
            self.writes[self.lastRequest] = (caller, connection, etag)
            self.execute([self.lastRequest])
        case .writeArrives(let caller, let connection, let etag):
            switch self.scheduler.arrive(connection: connection, target: Self.target, etag: etag, now: self.now) {
            case .run(let id):
                self.writes[id] = (caller, connection, etag)
                self.execute([id])
            case .hold(let id):
                self.writes[id] = (caller, connection, etag)
            }
        case .writeExecutes(let id):
            guard let write = self.writes.removeValue(forKey: id) else { return }
            let current = "v\(self.version)"
            let failed = write.etag == current ? nil : current
            if failed == nil { self.version += 1 }
            self.execute(
                self.scheduler.answered(id, failed.map { .conditionFailed(etag: $0) } ?? .committed, now: self.now))
            self.after(network: .writeAnswered(caller: write.caller, connection: write.connection, failedWith: failed))
        case .readAnswered(let caller, let connection, let etag):
            self.pool.append(connection)
            self.send(caller, etag: etag)
        case .writeAnswered(let caller, let connection, let failedWith):
            self.pool.append(connection)
            if let etag = failedWith {
                self.failures[caller] += 1
                self.send(caller, etag: etag)
            } else {
                self.losses.append(self.failures[caller])
                self.failures[caller] = 0
                self.remaining[caller] -= 1
                if self.remaining[caller] > 0 { self.send(caller, etag: nil) }
            }
        }
    }

    /// After the caller's own work, an ETag read (`etag` nil) or a compare-and-set, on a pooled connection.
    private mutating func send(_ caller: Int, etag: String?) {
        let connection: UInt64
        if self.sharedPool, let pooled = self.pool.popLast() {
            connection = pooled
        } else if self.sharedPool {
            self.lastConnection += 1
            connection = self.lastConnection
        } else {
            connection = UInt64(caller + 1)
        }
        let event: Event =
            etag.map { .writeArrives(caller: caller, connection: connection, etag: $0) }
            ?? .readArrives(caller: caller, connection: connection)
        self.schedule(event, after: self.delay(microseconds: 200...3000) + self.delay(microseconds: 50...300))
    }

    private mutating func execute(_ ids: [UInt64]) {
        for id in ids { self.schedule(.writeExecutes(id), after: self.delay(microseconds: 50...500)) }
    }

    private mutating func after(network event: Event) {
        self.schedule(event, after: self.delay(microseconds: 50...300))
    }

    private mutating func schedule(_ event: Event, after delay: Duration) {
        self.scheduled += 1
        // Events run in time order, ties in the order they were scheduled.
        self.events.append((self.now + delay, self.scheduled, event))
    }

    private mutating func delay(microseconds range: ClosedRange<Int>) -> Duration {
        .microseconds(Int.random(in: range, using: &self.random))
    }
}
