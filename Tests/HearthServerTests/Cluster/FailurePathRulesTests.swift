import HearthCluster
import HearthCore
import HearthSystem
import HearthTestKit
import Synchronization
import Testing

@testable import HearthDatabase
@testable import HearthReplication
@testable import HearthServer

/// The rules that end a wait as soon as a lost member makes it pointless (issue 35, target 5): a commit wait for an
/// entry a later term has overtaken, a shard call to a leader that was deposed, a claims answer a silent member left
/// incomplete, and a compare-and-set turn whose answer died with its caller's node.
@Suite struct FailurePathRulesTests {
    typealias Scheduler = ConditionalWriteScheduler
    static let target = Scheduler.Target(namespace: "ns", path: Path(keys: [Key(unchecked: "post")]))
    static let origin = ContinuousClock.now

    static func at(_ milliseconds: Int) -> ContinuousClock.Instant {
        Self.origin + .milliseconds(milliseconds)
    }

    /// An entry's wait ends when the log reaches its index, or earlier when a later term commits first: terms never
    /// decrease along a log, so an older term's entry beyond that point can never commit.
    @Test func aCommitWaitEndsOnceALaterTermCommits() {
        // Reached: settled whatever the term (the caller then compares the committed term).
        #expect(RaftShardLog.isSettled(raftIndex: 10, term: 3, committedThrough: 10, ofTerm: 3))
        #expect(RaftShardLog.isSettled(raftIndex: 10, term: 3, committedThrough: 12, ofTerm: 4))
        // Not reached, same term: it may still commit.
        #expect(!RaftShardLog.isSettled(raftIndex: 10, term: 3, committedThrough: 8, ofTerm: 3))
        // Not reached, a later term committed first: it never will.
        #expect(RaftShardLog.isSettled(raftIndex: 10, term: 3, committedThrough: 8, ofTerm: 4))
        // A later term's entry waits for its own index, whatever older terms did.
        #expect(!RaftShardLog.isSettled(raftIndex: 10, term: 5, committedThrough: 8, ofTerm: 4))
    }

    /// Records what was sent; the transport takes everything and nobody answers.
    final class Wire: Sendable {
        let sent = Mutex<[(NodeID, [UInt8])]>([])

        func send(_ peer: NodeID, _ bytes: [UInt8]) -> Bool {
            self.sent.withLock { $0.append((peer, bytes)) }
            return true
        }
    }

    /// A command waiting for a shard's old leader fails as `deposed` once another node leads the shard and it has
    /// waited `depositionGrace` (a leader that handed over gracefully answers within it); commands for other shards,
    /// to the new leader, and questions to the node (claims, turns) keep waiting.
    @Test(.timeLimit(.minutes(1))) func aCallToADeposedLeaderFailsAfterItsGrace() async throws {
        let wire = Wire()
        let clock = ManualNodeClock()
        let calls = ShardCalls(timeout: .seconds(60), clock: clock, log: Log(level: .critical), send: wire.send)
        let transaction = TransactionID(rawValue: 7)
        let toOldLeader = Task { try await calls.call(.unlock(transaction), shard: 2, to: "n1") }
        let otherShard = Task { try await calls.call(.unlock(transaction), shard: 3, to: "n1") }
        let toNewLeader = Task { try await calls.call(.unlock(transaction), shard: 2, to: "n2") }
        let question = Task { try await calls.call(.claims([transaction]), shard: 2, to: "n1") }
        #expect(await eventually { wire.sent.withLock { $0.count } == 4 })
        calls.leaderChanged(shard: 2, to: "n2")
        #expect(calls.inFlight == 4, "a fresh call gets its grace")
        _ = clock.advance(by: calls.depositionGrace)
        calls.expire()
        do {
            _ = try await toOldLeader.value
            Issue.record("the call to the deposed leader was answered")
        } catch let error as ShardCallError {
            guard case .deposed(let old, let new) = error.kind else {
                Issue.record("failed as \(error.kind)")
                return
            }
            #expect(old == "n1" && new == "n2")
            #expect(!Coordinator.certainlyNotCarriedOut(error))
        }
        #expect(calls.inFlight == 3)
        calls.failAll()
        for task in [otherShard, toNewLeader, question] { _ = try? await task.value }
    }

    /// A member's silence counts for nothing until the resolver trusts it; then only what the others claim stands.
    @Test func silenceCountsAsNoClaimOnlyWhenTrusted() {
        let (a, b) = (TransactionID(rawValue: 1), TransactionID(rawValue: 2))
        let incomplete = TransactionClaims(claimed: [a], isComplete: false)
        #expect(incomplete.orphans(among: [a, b]).isEmpty)
        #expect(incomplete.orphans(among: [a, b], trustingSilence: true) == [b])
        let complete = TransactionClaims(claimed: [a], isComplete: true)
        #expect(complete.orphans(among: [a, b]) == [b])
    }

    /// A running compare-and-set whose answer never comes (its caller's node died) holds its lane for
    /// `maximumHold`, not for good: the next one is held until then, and one arriving later runs at once.
    @Test func anUnansweredTurnStopsHoldingTheLane() {
        var scheduler = Scheduler()
        let hold = scheduler.settings.maximumHold
        guard case .run = scheduler.arrive(connection: 1, target: Self.target, etag: "e0", now: Self.at(0)),
            case .hold(let waiting) = scheduler.arrive(connection: 2, target: Self.target, etag: "e0", now: Self.at(1))
        else {
            Issue.record("the second compare-and-set did not wait for the first")
            return
        }
        let released = scheduler.tick(now: Self.origin + hold + .milliseconds(1))
        #expect(released == [waiting])
        #expect(scheduler.answered(waiting, .committed, now: Self.origin + hold + .milliseconds(2)).isEmpty)
        let later = scheduler.arrive(
            connection: 3, target: Self.target, etag: "e1", now: Self.origin + hold + .milliseconds(3))
        guard case .run = later else {
            Issue.record("a compare-and-set after the dead one's hold waited: \(later)")
            return
        }
    }

    /// When the connection to a node drops, its callers' turns at this node's gate end at once: a compare-and-set
    /// of this node's that waited behind one runs now, not after `maximumHold`.
    @Test(.timeLimit(.minutes(1))) func aLostNodesTurnsEndAtOnce() async {
        let gate = ConditionalWriteGate(settings: Scheduler.Settings(maximumHold: .seconds(60)))
        let service = RemoteTurnService(gate: gate)
        guard
            case .turnAdmitted = await service.run(
                .admit(caller: 7, target: Self.target, etag: "e0"), from: "n1")
        else {
            Issue.record("n1's caller was not admitted")
            return
        }
        let admitted = Mutex(false)
        let local = Task {
            let own = await gate.admit(connection: 8, target: Self.target, etag: "e0")
            admitted.withLock { $0 = true }
            return own
        }
        try? await Task.sleep(for: .milliseconds(100))
        #expect(!admitted.withLock { $0 }, "this node's caller went ahead of n1's running turn")
        service.peerLost("n1")
        #expect(await eventually { admitted.withLock { $0 } })
        gate.answered(await local.value, .committed)
        #expect(service.callerCount == 0)
    }

    /// A closed caller's compare-and-sets still waiting in line are let go without taking the lane (nobody will
    /// answer them): the live caller behind them runs as soon as the lane frees, not `maximumHold` later each.
    @Test func aClosedCallersHeldTurnsDoNotTakeTheLane() {
        var scheduler = Scheduler()
        guard case .run(let first) = scheduler.arrive(connection: 1, target: Self.target, etag: "e0", now: Self.at(0)),
            case .hold(let dead) = scheduler.arrive(connection: 2, target: Self.target, etag: "e0", now: Self.at(1)),
            case .hold(let live) = scheduler.arrive(connection: 3, target: Self.target, etag: "e0", now: Self.at(2))
        else {
            Issue.record("the later compare-and-sets did not wait for the first")
            return
        }
        #expect(scheduler.connectionClosed(2, now: Self.at(3)) == [dead])
        #expect(scheduler.answered(dead, .committed, now: Self.at(4)).isEmpty)
        #expect(scheduler.answered(first, .committed, now: Self.at(5)) == [live])
    }

    /// A caller whose connection closed (for a remote caller: its node's connection dropped) no longer holds the
    /// lane with the compare-and-set it was running: the one waiting runs at once.
    @Test func aClosedCallersRunningTurnEndsAtOnce() {
        var scheduler = Scheduler()
        guard case .run = scheduler.arrive(connection: 1, target: Self.target, etag: "e0", now: Self.at(0)),
            case .hold(let waiting) = scheduler.arrive(connection: 2, target: Self.target, etag: "e0", now: Self.at(1))
        else {
            Issue.record("the second compare-and-set did not wait for the first")
            return
        }
        #expect(scheduler.connectionClosed(1, now: Self.at(2)) == [waiting])
    }
}
