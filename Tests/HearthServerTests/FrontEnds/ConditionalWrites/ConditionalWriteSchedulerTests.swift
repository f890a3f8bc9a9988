import HearthCore
import Testing

@testable import HearthDatabase
@testable import HearthServer

/// The lane rules of `ConditionalWriteScheduler`, one event at a time.
@Suite struct ConditionalWriteSchedulerTests {
    typealias Scheduler = ConditionalWriteScheduler
    static let target = Scheduler.Target(namespace: "ns", path: Path(keys: [Key(unchecked: "counter")]))
    static let origin = ContinuousClock.now
    /// A fixed 10 ms retry window, whatever the gaps.
    static let settings = Scheduler.Settings(retryWindow: .milliseconds(10)...(.milliseconds(10)))

    static func at(_ milliseconds: Int) -> ContinuousClock.Instant {
        Self.origin + .milliseconds(milliseconds)
    }

    /// An uncontended compare-and-set runs at once and leaves nothing behind.
    @Test func anUncontendedCompareAndSetRunsAtOnceAndIsForgotten() {
        var scheduler = Scheduler()
        let admission = scheduler.arrive(connection: 1, target: Self.target, etag: "e0", now: Self.at(0))
        guard case .run(let id) = admission else {
            Issue.record("held \(admission)")
            return
        }
        #expect(scheduler.answered(id, .committed, now: Self.at(1)).isEmpty)
        #expect(scheduler.queues.isEmpty)
        #expect(scheduler.nextDeadline(after: Self.at(1)) == nil)
    }

    /// A caller answered `412` holds the lane until its retry, which runs before a newcomer that came meanwhile.
    @Test func aRetryRunsBeforeANewcomer() {
        var scheduler = Scheduler()
        guard case .run(let first) = scheduler.arrive(connection: 1, target: Self.target, etag: "e0", now: Self.at(0)),
            case .hold(let second) = scheduler.arrive(connection: 2, target: Self.target, etag: "e0", now: Self.at(0))
        else {
            Issue.record("the second compare-and-set did not wait for the first")
            return
        }
        #expect(scheduler.answered(first, .committed, now: Self.at(1)) == [second])
        #expect(scheduler.answered(second, .conditionFailed(etag: "e1"), now: Self.at(2)).isEmpty)
        let newcomer = scheduler.arrive(connection: 3, target: Self.target, etag: "e1", now: Self.at(3))
        let retry = scheduler.arrive(connection: 2, target: Self.target, etag: "e1", now: Self.at(4))
        guard case .hold(let waiting) = newcomer, case .run(let retried) = retry else {
            Issue.record("newcomer \(newcomer), retry \(retry)")
            return
        }
        #expect(scheduler.answered(retried, .committed, now: Self.at(5)) == [waiting])
    }

    /// The longest-waiting caller goes first: held requests leave in ticket order.
    @Test func heldRequestsGoInTicketOrder() {
        var scheduler = Scheduler(settings: Self.settings)
        var lost: [UInt64: UInt64] = [:]  // connection → its request
        guard case .run(let winner) = scheduler.arrive(connection: 9, target: Self.target, etag: "e0", now: Self.at(0))
        else { return }
        for connection: UInt64 in [3, 1, 2] {
            guard
                case .hold(let id) = scheduler.arrive(
                    connection: connection, target: Self.target, etag: "e0", now: Self.at(0))
            else { return }
            lost[connection] = id
        }
        var released = scheduler.answered(winner, .committed, now: Self.at(1))
        var order: [UInt64] = []
        while let id = released.first {
            let connection = lost.first { $0.value == id }?.key ?? 0
            order.append(connection)
            released = scheduler.answered(id, .conditionFailed(etag: "e1"), now: Self.at(2))
            released += scheduler.tick(now: Self.at(2) + .milliseconds(11))
        }
        #expect(order == [3, 1, 2])
        // Their tickets now say 3, 1, 2: whatever order the retries come in, 3 goes first.
        var retries: [UInt64: Scheduler.Admission] = [:]
        for connection: UInt64 in [2, 1, 3] {
            retries[connection] = scheduler.arrive(
                connection: connection, target: Self.target, etag: "e1", now: Self.at(40))
        }
        guard case .run(let first) = retries[2] else {
            Issue.record("the first retry back did not run: \(retries)")
            return
        }
        guard case .hold(let three) = retries[3], case .hold(let one) = retries[1] else { return }
        #expect(scheduler.answered(first, .committed, now: Self.at(41)) == [three])
        #expect(scheduler.answered(three, .conditionFailed(etag: "e2"), now: Self.at(42)).isEmpty)
        #expect(scheduler.tick(now: Self.at(42) + .milliseconds(11)) == [one])
    }

    /// Nothing waits forever: a retry that never comes frees the lane after the window, a running request that is
    /// never answered frees it `maximumHold` after it started, and no request is held longer than `maximumHold`.
    @Test func waitsAreBounded() {
        var settings = Self.settings
        settings.maximumHold = .milliseconds(15)
        var scheduler = Scheduler(settings: settings)
        guard case .run(let first) = scheduler.arrive(connection: 1, target: Self.target, etag: "e0", now: Self.at(0))
        else { return }
        _ = scheduler.answered(first, .conditionFailed(etag: "e1"), now: Self.at(1))
        guard
            case .hold(let waiting) = scheduler.arrive(connection: 2, target: Self.target, etag: "e1", now: Self.at(2))
        else { return }
        #expect(scheduler.tick(now: Self.at(10)).isEmpty)
        #expect(scheduler.nextDeadline(after: Self.at(10)) == Self.at(11), "the window ends")
        #expect(scheduler.tick(now: Self.at(11)) == [waiting])
        guard case .hold(let late) = scheduler.arrive(connection: 3, target: Self.target, etag: "e1", now: Self.at(12))
        else { return }
        // The one running since 11 holds the lane until answered or until 26 (`maximumHold` after it started),
        // a millisecond before `late`'s own bound.
        #expect(scheduler.tick(now: Self.at(25)) == [])
        #expect(scheduler.tick(now: Self.at(26)) == [late])
    }

    /// A retry on another pooled connection keeps its place: the ticket awaited on a connection next used for an
    /// ETag read goes to the ticketless compare-and-set with its ETag.
    @Test func aRetryOnAnotherConnectionAdoptsTheOrphanedTicket() {
        var scheduler = Scheduler()
        guard case .run(let lost) = scheduler.arrive(connection: 1, target: Self.target, etag: "e0", now: Self.at(0))
        else { return }
        _ = scheduler.answered(lost, .conditionFailed(etag: "e1"), now: Self.at(1))
        // Another thread reads on connection 1, so the retry comes on connection 2, before or after the read.
        scheduler.read(connection: 1, target: Self.target, now: Self.at(2))
        guard case .run(let retry) = scheduler.arrive(connection: 2, target: Self.target, etag: "e1", now: Self.at(3))
        else {
            Issue.record("the retry on another connection waited")
            return
        }
        // The reader's own compare-and-set is a newcomer, so it waits for the retry.
        guard case .hold = scheduler.arrive(connection: 1, target: Self.target, etag: "e1", now: Self.at(3)) else {
            Issue.record("the new transaction did not wait for the retry")
            return
        }
        _ = scheduler.answered(retry, .committed, now: Self.at(4))
        #expect(scheduler.queues[Self.target]?.callers[2] == nil, "the ticket was spent")
    }

    /// Closed connections and idle locations are forgotten.
    @Test func closedConnectionsAndIdleLocationsAreForgotten() {
        var scheduler = Scheduler()
        guard case .run(let id) = scheduler.arrive(connection: 1, target: Self.target, etag: "e0", now: Self.at(0))
        else { return }
        _ = scheduler.answered(id, .conditionFailed(etag: "e1"), now: Self.at(1))
        #expect(scheduler.queues[Self.target]?.callers[1] != nil)
        _ = scheduler.connectionClosed(1, now: Self.at(2))
        #expect(scheduler.queues[Self.target]?.callers[1] == nil)
        let forgetAt = scheduler.nextDeadline(after: Self.at(20))
        #expect(forgetAt != nil)
        _ = scheduler.tick(now: forgetAt ?? Self.at(0))
        #expect(scheduler.queues.isEmpty)
    }
}
