import HearthCluster
import HearthSystem
import HearthTestKit
import Synchronization
import Testing

@testable import HearthDatabase
@testable import HearthReplication
@testable import HearthServer

/// The calling side of shard commands: answers reach the call with their id, unanswered calls time out with an
/// error that says the outcome is unknown, and a call the transport would not take fails at once.
@Suite struct ShardCallsTests {
    /// Records what was sent and whether the transport takes it.
    final class Wire: Sendable {
        let sent = Mutex<[(NodeID, [UInt8])]>([])
        let accepts = Atomic(true)

        func send(_ peer: NodeID, _ bytes: [UInt8]) -> Bool {
            self.sent.withLock { $0.append((peer, bytes)) }
            return self.accepts.load(ordering: .relaxed)
        }
    }

    @Test(.timeLimit(.minutes(1))) func anAnswerResumesItsCall() async throws {
        let wire = Wire()
        let calls = ShardCalls(timeout: .seconds(30), log: Log(level: .critical), send: wire.send)
        let call = Task { try await calls.call(.unlock(TransactionID(rawValue: 1)), shard: 2, to: "n2") }
        #expect(await eventually { wire.sent.withLock { $0.count } == 1 })
        let (peer, bytes) = try #require(wire.sent.withLock { $0.first })
        #expect(peer == "n2")
        let sent = try ShardCall(decoding: bytes)
        #expect(sent.shard == 2)
        calls.receive(ShardReply(id: sent.id + 1, outcome: .unlocked).encoded(), from: "n2")
        #expect(calls.inFlight == 1)
        calls.receive(ShardReply(id: sent.id, outcome: .notLeader(leader: "n3")).encoded(), from: "n2")
        guard case .notLeader(let leader) = try await call.value else {
            Issue.record("the call got another answer")
            return
        }
        #expect(leader == "n3")
        #expect(calls.inFlight == 0)
    }

    @Test(.timeLimit(.minutes(1))) func anAnswerFromAnotherPeerIsDropped() async throws {
        let wire = Wire()
        let calls = ShardCalls(timeout: .seconds(30), log: Log(level: .critical), send: wire.send)
        let call = Task { try await calls.call(.unlock(TransactionID(rawValue: 1)), shard: 2, to: "n2") }
        #expect(await eventually { wire.sent.withLock { $0.count } == 1 })
        let sent = try ShardCall(decoding: try #require(wire.sent.withLock { $0.first?.1 }))
        calls.receive(ShardReply(id: sent.id, outcome: .readLockLost).encoded(), from: "n3")
        #expect(calls.inFlight == 1)
        calls.receive(ShardReply(id: sent.id, outcome: .unlocked).encoded(), from: "n2")
        guard case .unlocked = try await call.value else {
            Issue.record("the call took the other peer's answer")
            return
        }
    }

    /// A restarted node must not take an answer to one of its previous incarnation's calls (still queued at the
    /// peer) for the answer to a new call: each incarnation numbers its calls from its own random start.
    @Test(.timeLimit(.minutes(1))) func incarnationsNumberTheirCallsApart() async throws {
        var ids: [UInt64] = []
        for firstID: UInt64 in [7, .max] {
            let wire = Wire()
            let calls = ShardCalls(timeout: .seconds(30), log: Log(level: .critical), firstID: firstID, send: wire.send)
            for _ in 0..<2 {
                let call = Task { try await calls.call(.unlock(TransactionID(rawValue: 1)), shard: 0, to: "n2") }
                #expect(await eventually { calls.inFlight == 1 })
                let sent = try ShardCall(decoding: try #require(wire.sent.withLock { $0.last?.1 }))
                ids.append(sent.id)
                calls.receive(ShardReply(id: sent.id, outcome: .unlocked).encoded(), from: "n2")
                _ = try await call.value
            }
        }
        #expect(ids == [7, 8, .max, 0])
        let first = ShardCalls(timeout: .seconds(1), log: Log(level: .critical), send: { _, _ in true })
        let second = ShardCalls(timeout: .seconds(1), log: Log(level: .critical), send: { _, _ in true })
        #expect(first.nextCallID != second.nextCallID)
    }

    /// A lost connection ends the calls to that peer at once, as "unknown outcome", and leaves the others waiting.
    @Test(.timeLimit(.minutes(1))) func aLostConnectionEndsItsPeersCallsAtOnce() async throws {
        let wire = Wire()
        let calls = ShardCalls(timeout: .seconds(30), log: Log(level: .critical), send: wire.send)
        let toN2 = Task { try await calls.call(.finish(TransactionID(rawValue: 1), commit: true), shard: 0, to: "n2") }
        let toN3 = Task { try await calls.call(.unlock(TransactionID(rawValue: 2)), shard: 1, to: "n3") }
        #expect(await eventually { calls.inFlight == 2 })
        calls.connectionLost(to: "n2")
        do {
            _ = try await toN2.value
            Issue.record("a call whose connection was lost returned")
        } catch let error as ShardCallError {
            guard case .connectionLost(let peer) = error.kind else {
                Issue.record("expected a lost connection, got \(error)")
                return
            }
            #expect(peer == "n2")
            #expect(error.description.contains("may or may not have been applied"))
            #expect(!Coordinator.certainlyNotCarriedOut(error))
        }
        #expect(calls.inFlight == 1)
        let sent = try ShardCall(decoding: try #require(wire.sent.withLock { $0.first { $0.0 == "n3" }?.1 }))
        calls.receive(ShardReply(id: sent.id, outcome: .unlocked).encoded(), from: "n3")
        _ = try await toN3.value
    }

    @Test(.timeLimit(.minutes(1))) func anUnansweredCallTimesOutAsUnknown() async throws {
        let wire = Wire()
        let calls = ShardCalls(timeout: .milliseconds(20), log: Log(level: .critical), send: wire.send)
        let call = Task { try await calls.call(.finish(TransactionID(rawValue: 1), commit: true), shard: 0, to: "n2") }
        #expect(await eventually { calls.inFlight == 1 })
        calls.expire(now: .now + .seconds(1))
        do {
            _ = try await call.value
            Issue.record("an unanswered call returned")
        } catch let error as ShardCallError {
            guard case .timedOut(let peer) = error.kind else {
                Issue.record("expected a timeout, got \(error)")
                return
            }
            #expect(peer == "n2")
            #expect(error.description.contains("may or may not have been applied"))
        }
    }

    @Test(.timeLimit(.minutes(1))) func aCallTheTransportRefusesFailsAtOnce() async throws {
        let wire = Wire()
        wire.accepts.store(false, ordering: .relaxed)
        let calls = ShardCalls(timeout: .seconds(30), log: Log(level: .critical), send: wire.send)
        await #expect(throws: ShardCallError.self) {
            _ = try await calls.call(.unlock(TransactionID(rawValue: 1)), shard: 0, to: "n2")
        }
        #expect(calls.inFlight == 0)
    }
}
