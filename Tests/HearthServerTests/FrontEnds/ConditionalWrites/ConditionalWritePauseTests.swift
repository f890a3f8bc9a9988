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
        guard case .run(let running) = scheduler.arrive(connection: 1, target: Self.target, etag: "e0", now: Self.at(0))
        else {
            Issue.record("an uncontended compare-and-set was held")
            return
        }
        scheduler.pause { $0 == Self.target }
        #expect(scheduler.runningCount(where: { $0 == Self.target }, now: Self.at(1)) == 1)
        guard
            case .hold(let newcomer) = scheduler.arrive(connection: 2, target: Self.target, etag: "e0", now: Self.at(2))
        else {
            Issue.record("a newcomer ran at a paused location")
            return
        }
        #expect(scheduler.answered(running, .committed, now: Self.at(3)).isEmpty)
        #expect(scheduler.runningCount(where: { $0 == Self.target }, now: Self.at(3)) == 0)
        #expect(scheduler.tick(now: Self.at(4)).isEmpty)
        #expect(scheduler.resume(where: { $0 == Self.target }, now: Self.at(5)) == [newcomer])
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
