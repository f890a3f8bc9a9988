import HearthCluster
import HearthDatabase
import HearthSystem

/// A cluster node's compare-and-sets take their turns at the node leading their location's shard: its gate keeps the
/// line for every node's callers, so callers of three nodes contending for one post wait in one line instead of
/// three lines racing (each node's turn-holder against the others', which let a caller lose 25 rounds in a row).
///
/// A location above the shard depth, or whose shard this node leads or has no known leader for, takes its turn in
/// this node's gate. A turn the leader cannot give (unreachable, or no answer within `admitTimeout`) is skipped:
/// the compare-and-set runs at once, as it would without turns, and stays correct.
final class ClusterConditionalWriteTurns: ConditionalWriteTurns {
    /// This node's gate: its own line, and the one other nodes' callers join (`RemoteTurnService`).
    let local: ConditionalWriteGate
    private let node: NodeID
    private let leader: @Sendable (ConditionalWriteScheduler.Target) -> NodeID?
    private let call: @Sendable (ShardCall.Command, NodeID, Duration) async throws -> ShardReply.Outcome
    private let admitTimeout: Duration
    /// The other nodes each connection took turns or read at, to tell when it closes.
    private let contacted = Lock<[UInt64: Set<NodeID>]>([:])

    /// - Parameters:
    ///   - leader: the node leading the shard of a location, if it has one and one is known.
    ///   - call: sends a command to a node and waits at most the given time for its answer (`ShardCalls.call`).
    ///   - admitTimeout: the longest an admission is waited for; more than the gate's `maximumHold`, so that the
    ///     leader's own bound ends a long wait first.
    init(
        local: ConditionalWriteGate, node: NodeID,
        leader: @escaping @Sendable (ConditionalWriteScheduler.Target) -> NodeID?,
        admitTimeout: Duration,
        call: @escaping @Sendable (ShardCall.Command, NodeID, Duration) async throws -> ShardReply.Outcome
    ) {
        self.local = local
        self.node = node
        self.leader = leader
        self.admitTimeout = admitTimeout
        self.call = call
    }

    func admit(connection: UInt64, target: ConditionalWriteScheduler.Target, etag: String) async
        -> ConditionalWriteTurn
    {
        guard let leader = self.remoteLeader(of: target) else {
            return await self.local.admit(connection: connection, target: target, etag: etag)
        }
        self.contacted.withLock { _ = $0[connection, default: []].insert(leader) }
        let admission = try? await self.call(
            .turn(.admit(caller: connection, target: target, etag: etag)), leader, self.admitTimeout)
        guard case .turnAdmitted(let request)? = admission else { return .skipped }
        return .remote(request, leader)
    }

    func answered(_ turn: ConditionalWriteTurn, _ answer: ConditionalWriteScheduler.Answer) {
        switch turn {
        case .local: self.local.answered(turn, answer)
        case .remote(let request, let leader): self.tell(leader, .answered(request: request, answer))
        case .skipped: break
        }
    }

    func read(connection: UInt64, target: ConditionalWriteScheduler.Target) {
        guard let leader = self.remoteLeader(of: target) else {
            self.local.read(connection: connection, target: target)
            return
        }
        self.contacted.withLock { _ = $0[connection, default: []].insert(leader) }
        self.tell(leader, .read(caller: connection, target: target))
    }

    func connectionClosed(_ connection: UInt64) {
        self.local.connectionClosed(connection)
        for node in self.contacted.withLock({ $0.removeValue(forKey: connection) }) ?? [] {
            self.tell(node, .callerClosed(connection))
        }
    }

    /// Connections that took turns at other nodes and have not closed.
    var contactedCount: Int { self.contacted.withLock { $0.count } }

    /// The leader of `target`'s shard when it is another node.
    private func remoteLeader(of target: ConditionalWriteScheduler.Target) -> NodeID? {
        guard let leader = self.leader(target), leader != self.node else { return nil }
        return leader
    }

    /// Sends a command whose answer nobody waits for (a lost one only costs a caller its place in line).
    private func tell(_ node: NodeID, _ command: ShardCall.TurnCommand) {
        Task { [call, admitTimeout] in _ = try? await call(.turn(command), node, admitTimeout) }
    }
}
