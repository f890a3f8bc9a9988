import HearthCore
import Testing

@testable import HearthDatabase

/// A paused location (its shard being handed to another leader): what runs finishes, nothing new starts until the
/// pause ends, and a held request still goes at `maximumHold`.
@Suite struct ConditionalWritePauseTests {
    typealias Scheduler = ConditionalWriteScheduler
    static let target = Scheduler.Target(namespace: "ns", path: Path(keys: [Key(unchecked: "post")]))
    static let other = Scheduler.Target(namespace: "ns", path: Path(keys: [Key(unchecked: "elsewhere")]))
    static let origin = ContinuousClock.now

    static func at(_ milliseconds: Int) -> ContinuousClock.Instant {
        Self.origin + .milliseconds(milliseconds)
    }

    /// A running compare-and-set is counted and finishes; a newcomer waits for the resume, not for the answer.
    @Test func aPausedLocationLetsTheRunningFinishAndStartsNothing() {
        var scheduler = Scheduler()
        guard
            case .run(let running) = scheduler.arrive(
                connection: 1, target: Self.target, etag: "e0", now: Self.at(0), group: 7)
        else {
            Issue.record("an uncontended compare-and-set was held")
            return
        }
        scheduler.pause { $0 == Self.target }
        #expect(scheduler.runningCount(group: 7) == 1)
        guard
            case .hold(let newcomer) = scheduler.arrive(
                connection: 2, target: Self.target, etag: "e0", now: Self.at(2), group: 7)
        else {
            Issue.record("a newcomer ran at a paused location")
            return
        }
        #expect(scheduler.answered(running, .committed, now: Self.at(3)).isEmpty)
        #expect(scheduler.runningCount(group: 7) == 0)
        #expect(scheduler.tick(now: Self.at(4)).isEmpty)
        #expect(scheduler.resume(where: { $0 == Self.target }, now: Self.at(5)) == [newcomer])
        #expect(scheduler.runningCount(group: 7) == 1, "the newcomer runs")
        #expect(scheduler.connectionClosed(2, now: Self.at(6)).isEmpty)
        #expect(scheduler.runningCount(group: 7) == 0, "a closed caller's running one is dropped and uncounted")
        #expect(scheduler.runningCount(group: 8) == 0)
    }

    /// A compare-and-set arriving paused at a location with nothing kept waits too; other locations run as ever.
    @Test func anArrivalMarkedPausedWaitsAndOthersRun() {
        var scheduler = Scheduler()
        let paused = scheduler.arrive(connection: 1, target: Self.target, etag: "e0", now: Self.at(0), paused: true)
        let free = scheduler.arrive(connection: 2, target: Self.other, etag: "e0", now: Self.at(0))
        guard case .hold(let held) = paused, case .run = free else {
            Issue.record("paused \(paused), elsewhere \(free)")
            return
        }
        #expect(scheduler.resume(where: { $0 == Self.target }, now: Self.at(1)) == [held])
    }

    /// Once another node leads the location's shard, the requests held here go at once, however long this line
    /// still was — behind a running one or a pause that the new leader's answers never end — and only there; a late
    /// answer of the running one changes nothing.
    @Test func heldRequestsGoAtOnceWhenAnotherNodeLeads() {
        var scheduler = Scheduler()
        guard case .run(let running) = scheduler.arrive(connection: 1, target: Self.target, etag: "e0", now: Self.at(0))
        else {
            Issue.record("an uncontended compare-and-set was held")
            return
        }
        scheduler.pause { $0 == Self.target }
        let held = [2, 3].compactMap { connection -> UInt64? in
            guard
                case .hold(let id) = scheduler.arrive(
                    connection: UInt64(connection), target: Self.target, etag: "e0", now: Self.at(connection))
            else { return nil }
            return id
        }
        guard case .run = scheduler.arrive(connection: 4, target: Self.other, etag: "e0", now: Self.at(4)),
            case .hold = scheduler.arrive(connection: 5, target: Self.other, etag: "e0", now: Self.at(5))
        else {
            Issue.record("the other location's line is not as set up")
            return
        }
        #expect(held.count == 2)
        #expect(scheduler.tick(now: Self.at(100)).isEmpty, "before the move they wait")
        #expect(scheduler.moved { $0 == Self.target } == held.sorted())
        #expect(scheduler.answered(running, .committed, now: Self.at(110)).isEmpty)
        #expect(scheduler.tick(now: Self.at(120)).isEmpty, "the other location keeps its line")
        #expect(scheduler.nextDeadline(after: Self.at(120)).map { $0 > Self.at(120) } == true)
        guard
            case .run = scheduler.arrive(connection: 6, target: Self.target, etag: "e1", now: Self.at(130))
        else {
            Issue.record("the moved location stayed paused")
            return
        }
    }

    /// A running compare-and-set whose answer never comes counts as running until it is forgotten, `memory` after
    /// its hold ended, and the scheduler's timer comes back then to forget it.
    @Test func anUnansweredRunningOneStopsCountingOnceForgotten() {
        var scheduler = Scheduler()
        let settings = scheduler.settings
        guard
            case .run = scheduler.arrive(connection: 1, target: Self.target, etag: "e0", now: Self.at(0), group: 3)
        else {
            Issue.record("an uncontended compare-and-set was held")
            return
        }
        let forgotten = Self.at(0) + settings.maximumHold + settings.memory
        #expect(scheduler.runningCount(group: 3) == 1)
        #expect(scheduler.nextDeadline(after: Self.at(0)).map { $0 <= forgotten } == true)
        _ = scheduler.tick(now: forgotten)
        #expect(scheduler.runningCount(group: 3) == 0)
        #expect(scheduler.nextDeadline(after: forgotten) == nil)
    }

    /// The pause is bounded: a request held `maximumHold` runs even while its location stays paused.
    @Test func aHeldRequestStillRunsAtMaximumHold() {
        var scheduler = Scheduler()
        let hold = scheduler.settings.maximumHold
        guard
            case .hold(let held) = scheduler.arrive(
                connection: 1, target: Self.target, etag: "e0", now: Self.at(0), paused: true)
        else {
            Issue.record("a paused arrival ran")
            return
        }
        #expect(scheduler.nextDeadline(after: Self.at(0)) == Self.at(0) + hold)
        #expect(scheduler.tick(now: Self.at(0) + hold) == [held])
    }
}
