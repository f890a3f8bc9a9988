import HearthCluster
import HearthDatabase
import HearthSystem
import Synchronization

/// The calling side of shard commands sent to other nodes: each call gets an id, waits for the reply with that id,
/// and fails with `ShardCallError.timedOut` when none comes within `timeout` (the frame or its answer was lost, or
/// the leader is stuck). `run()` sweeps expired calls; `failAll` ends every call when the node stops.
///
/// Ids start at a random number, so they differ between incarnations of a node: a peer may still deliver the answer
/// to a call made before this node restarted (it sat in the peer's queue), and that answer must not be taken for the
/// answer to a new call (the simulation's seed 909 did exactly that, and a transaction committed with a prepare that
/// belonged to another one). A reply is also taken only from the peer the call went to.
final class ShardCalls: Sendable {
    private struct Pending {
        var continuation: CheckedContinuation<ShardReply.Outcome, any Error>
        var peer: NodeID
        var shard: Int
        /// The command is for the shard's leader (`ShardCall.Command.isForLeader`).
        var isForLeader: Bool
        var sent: ContinuousClock.Instant
        var deadline: ContinuousClock.Instant
    }

    /// Answered calls to one peer: how many, and their round trips summed (for `/.metrics`).
    struct RoundTrips: Sendable {
        var count: UInt64 = 0
        var seconds: Double = 0
    }

    /// How long a call waits for its answer.
    let timeout: Duration
    /// How long a command for a shard may still wait for a node after another became the shard's leader.
    let depositionGrace = Duration.milliseconds(300)
    /// Each shard's leader as this node's replica last learned it (`leaderChanged`).
    private let leaders = Lock<[Int: NodeID]>([:])
    private let send: @Sendable (NodeID, [UInt8]) -> Bool
    private let pending = Lock<[UInt64: Pending]>([:])
    private let nextID: Atomic<UInt64>
    private let roundTrips = Lock<[NodeID: RoundTrips]>([:])
    /// Set by `failAll`: the node is stopping, and later calls fail at once.
    private let isClosed = Atomic(false)
    private let log: Log
    private let clock: any NodeClock

    /// - Parameters:
    ///   - firstID: the first call's id; give each incarnation of a node a random one.
    ///   - send: queues an encoded `ShardCall` for a peer (the transport's `shardCall` frames); false when the
    ///     transport would not take it.
    init(
        timeout: Duration, clock: any NodeClock = .system, log: Log, firstID: UInt64 = UInt64.random(in: .min ... .max),
        send: @escaping @Sendable (NodeID, [UInt8]) -> Bool
    ) {
        self.nextID = Atomic(firstID)
        self.timeout = timeout
        self.clock = clock
        self.log = log
        self.send = send
    }

    /// Sends `command` for `shard` to `peer` and waits for its answer, at most `timeout` (the calls' own unless
    /// given).
    /// - Throws: `ShardCallError` when the call cannot be sent or is not answered in time.
    func call(
        _ command: ShardCall.Command, shard: Int, to peer: NodeID, timeout: Duration? = nil
    ) async throws -> ShardReply.Outcome {
        let id = self.nextID.wrappingAdd(1, ordering: .relaxed).oldValue
        let payload = ShardCall(id: id, shard: shard, command: command).encoded()
        let sent = self.clock.now
        let deadline = sent + (timeout ?? self.timeout)
        return try await withCheckedThrowingContinuation { continuation in
            let isOpen = self.pending.withLock { pending in
                guard !self.isClosed.load(ordering: .relaxed) else { return false }
                pending[id] = Pending(
                    continuation: continuation, peer: peer, shard: shard, isForLeader: command.isForLeader, sent: sent,
                    deadline: deadline)
                return true
            }
            guard isOpen else {
                continuation.resume(throwing: NodeStoppingError())
                return
            }
            if !self.send(peer, payload), let unsent = self.pending.withLock({ $0.removeValue(forKey: id) }) {
                unsent.continuation.resume(
                    throwing: ShardCallError(shard: shard, kind: .unreachable(peer), waited: .zero))
            }
        }
    }

    /// A `shardReply` frame from `peer`: resumes the call it answers. A reply nobody waits for any more (its call
    /// timed out, or was made before this node restarted), or that comes from another peer than the call went to, is
    /// dropped.
    func receive(_ payload: [UInt8], from peer: NodeID) {
        let reply: ShardReply
        do {
            reply = try ShardReply(decoding: payload)
        } catch {
            self.log.warning("shard_call.bad_reply", ["from": peer.name, "error": "\(error)"])
            return
        }
        let answered = self.pending.withLock { pending -> Pending? in
            guard pending[reply.id]?.peer == peer else { return nil }
            return pending.removeValue(forKey: reply.id)
        }
        guard let waiting = answered else { return }
        let elapsed = self.clock.now - waiting.sent
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        self.roundTrips.withLock { totals in
            totals[waiting.peer, default: RoundTrips()].count += 1
            totals[waiting.peer, default: RoundTrips()].seconds += seconds
        }
        waiting.continuation.resume(returning: reply.outcome)
    }

    /// The id the next call gets.
    var nextCallID: UInt64 { self.nextID.load(ordering: .relaxed) }

    /// Answered calls and their summed round trips, by peer.
    var roundTripTotals: [NodeID: RoundTrips] { self.roundTrips.withLock { $0 } }

    /// The connection to `peer` was lost: its calls still waiting fail at once as `connectionLost` (their answers
    /// can no longer come), rather than when their timeout passes.
    func connectionLost(to peer: NodeID) {
        for call in self.takeCalls(where: { $0.peer == peer }) {
            call.continuation.resume(
                throwing: ShardCallError(
                    shard: call.shard, kind: .connectionLost(peer), waited: self.clock.now - call.sent))
        }
    }

    /// `shard` has a new leader, `leader`, as this node's replica learned. A command for the shard waiting for
    /// another node fails as `deposed` once it has waited `depositionGrace` (at once if it has, else at a later
    /// sweep): its outcome is unknown, as after a timeout, but the old leader's answer is not worth waiting for —
    /// cut off from the others it may never come, and a coordinator waiting for it keeps its transaction's other
    /// parts prepared, blocking their paths, for the whole call timeout (a partition stopped every node's writes for
    /// 5 s). The grace lets a leader that handed over gracefully, and is still connected, answer first.
    func leaderChanged(shard: Int, to leader: NodeID) {
        self.leaders.withLock { $0[shard] = leader }
        self.failDeposed(now: self.clock.now)
    }

    /// Fails the commands waiting for a node that no longer leads their shard, sent `depositionGrace` or more ago.
    private func failDeposed(now: ContinuousClock.Instant) {
        let leaders = self.leaders.withLock { $0 }
        let deposed = self.takeCalls { call in
            guard call.isForLeader, let leader = leaders[call.shard], leader != call.peer else { return false }
            return now - call.sent >= self.depositionGrace
        }
        for call in deposed {
            let leader = leaders[call.shard] ?? call.peer
            call.continuation.resume(
                throwing: ShardCallError(
                    shard: call.shard, kind: .deposed(call.peer, by: leader), waited: now - call.sent))
        }
    }

    /// Fails every call whose deadline has passed (by `now`, the clock's time unless given), and every command
    /// still waiting for a deposed leader past `depositionGrace` (`leaderChanged`).
    func expire(now: ContinuousClock.Instant? = nil) {
        let now = now ?? self.clock.now
        self.failDeposed(now: now)
        for call in self.takeCalls(where: { $0.deadline <= now }) {
            call.continuation.resume(
                throwing: ShardCallError(shard: call.shard, kind: .timedOut(call.peer), waited: now - call.sent))
        }
    }

    /// Removes the waiting calls that match `condition` and returns them, for their caller to fail.
    private func takeCalls(where condition: (Pending) -> Bool) -> [Pending] {
        self.pending.withLock { pending in
            let ids = pending.filter { condition($0.value) }.map(\.key)
            return ids.compactMap { pending.removeValue(forKey: $0) }
        }
    }

    /// Fails every call still waiting, and every later one (the node is stopping).
    func failAll() {
        let waiting = self.pending.withLock { pending -> [Pending] in
            self.isClosed.store(true, ordering: .relaxed)
            defer { pending.removeAll() }
            return Array(pending.values)
        }
        for call in waiting {
            call.continuation.resume(throwing: NodeStoppingError())
        }
    }

    /// Calls waiting for an answer.
    var inFlight: Int { self.pending.withLock { $0.count } }

    /// Expires calls until cancelled, then fails the rest.
    func run() async {
        while (try? await self.clock.sleep(for: .milliseconds(50))) != nil {
            self.expire()
        }
        self.failAll()
    }
}
