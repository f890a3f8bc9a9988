import HearthCluster
import HearthCore
import HearthTestKit
import Synchronization
import Testing

@testable import HearthDatabase
@testable import HearthReplication
@testable import HearthServer

/// Compare-and-sets of every node take their turns in the gate of the node leading their location's shard: one line
/// per location across the cluster. Two nodes here, n1 sending its turn commands straight to n2's service.
@Suite struct ClusterConditionalWriteTurnsTests {
    static let target = ConditionalWriteScheduler.Target(namespace: "app", path: Path(keys: [Key(unchecked: "p")]))

    /// n2: its gate and the service other nodes' commands run on. A turn holds its lane until answered or for
    /// `maximumHold`; a minute here, so a slow machine never lets the hold run out within a test.
    final class Leader: Sendable {
        let gate = ConditionalWriteGate(settings: ConditionalWriteScheduler.Settings(maximumHold: .seconds(60)))
        let service: RemoteTurnService
        let calls = Mutex<[ShardCall.TurnCommand]>([])
        let isReachable = Atomic(true)

        init() { self.service = RemoteTurnService(gate: self.gate) }

        /// n1's turns, with `leader` naming the leader of every location.
        func turns(leader: NodeID?) -> ClusterConditionalWriteTurns {
            ClusterConditionalWriteTurns(
                local: ConditionalWriteGate(), node: "n1", leader: { _ in leader }, admitTimeout: .seconds(3),
                call: { command, node, _ in
                    guard case .turn(let turn) = command, node == "n2", self.isReachable.load(ordering: .relaxed) else {
                        throw ShardCallError(shard: 0, kind: .unreachable(node), waited: .zero)
                    }
                    self.calls.withLock { $0.append(turn) }
                    return await self.service.run(turn, from: "n1")
                })
        }

        var commands: [ShardCall.TurnCommand] { self.calls.withLock { $0 } }
    }

    @Test func aRemoteTurnHoldsTheLeadersLineUntilItIsAnswered() async throws {
        let leader = Leader()
        let turns = leader.turns(leader: "n2")
        let turn = await turns.admit(connection: 7, target: Self.target, etag: "e0")
        guard case .remote(let request, "n2") = turn else {
            Issue.record("the turn was taken at \(turn), not at the leader")
            return
        }
        // n2's own client contends for the same location: it waits for n1's caller to be answered.
        let admitted = Mutex(false)
        let local = Task {
            let own = await leader.gate.admit(connection: 8, target: Self.target, etag: "e0")
            admitted.withLock { $0 = true }
            return own
        }
        try await Task.sleep(for: .milliseconds(100))
        let wentAhead = admitted.withLock { $0 }
        #expect(!wentAhead, "n2's caller went ahead of the turn n1's caller holds")
        turns.answered(turn, .committed)
        #expect(await eventually { admitted.withLock { $0 } })
        leader.gate.answered(await local.value, .committed)
        #expect(leader.commands.contains(.answered(request: request, .committed)))
    }

    @Test func aLocationThisNodeLeadsOrNobodyLeadsTakesItsTurnHere() async {
        let leader = Leader()
        for turns in [leader.turns(leader: "n1"), leader.turns(leader: nil)] {
            let turn = await turns.admit(connection: 7, target: Self.target, etag: "e0")
            guard case .local = turn else {
                Issue.record("the turn was taken at \(turn), not here")
                continue
            }
            turns.answered(turn, .committed)
            turns.read(connection: 7, target: Self.target)
        }
        #expect(leader.commands.isEmpty)
    }

    @Test func anUnreachableLeaderMeansNoTurnAndNothingToEnd() async {
        let leader = Leader()
        leader.isReachable.store(false, ordering: .relaxed)
        let turns = leader.turns(leader: "n2")
        let turn = await turns.admit(connection: 7, target: Self.target, etag: "e0")
        #expect(turn == .skipped)
        turns.answered(turn, .failed)
        #expect(leader.commands.isEmpty)
    }

    @Test func aClosedConnectionIsForgottenByTheLeadersItTookTurnsAt() async {
        let leader = Leader()
        let turns = leader.turns(leader: "n2")
        turns.read(connection: 7, target: Self.target)
        let turn = await turns.admit(connection: 7, target: Self.target, etag: "e0")
        turns.answered(turn, .committed)
        #expect(await eventually { leader.service.callerCount == 1 })
        #expect(turns.contactedCount == 1)
        turns.connectionClosed(7)
        #expect(turns.contactedCount == 0)
        #expect(await eventually { leader.service.callerCount == 0 })
        // The answer and the close go out as separate calls, which may reach the leader in either order.
        #expect(await eventually { leader.commands.contains(.callerClosed(7)) })
    }

    @Test func callersOfDifferentNodesAreDifferentCallers() async {
        let service = RemoteTurnService(gate: ConditionalWriteGate())
        for node: NodeID in ["n1", "n3"] {
            let outcome = await service.run(.admit(caller: 5, target: Self.target, etag: "e0"), from: node)
            guard case .turnAdmitted(let request) = outcome else {
                Issue.record("an admission was answered \(outcome)")
                continue
            }
            _ = await service.run(.answered(request: request, .committed), from: node)
        }
        #expect(service.callerCount == 2)
        _ = await service.run(.callerClosed(5), from: "n1")
        #expect(service.callerCount == 1)
    }
}
