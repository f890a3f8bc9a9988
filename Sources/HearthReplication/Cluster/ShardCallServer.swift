import HearthCluster
import HearthDatabase
import HearthSystem

/// Runs, on this node's shard actors, the commands other nodes' coordinators send to the shards this node leads,
/// and sends each answer back. A shard this node does not lead answers `notLeader` with the leader it knows of;
/// nothing is appended then, so the caller may simply try that node.
final class ShardCallServer: Sendable {
    private let shards: LocalShardClient
    /// What this node's coordinator runs, for `ShardCall.Command.claims`.
    private let running: RunningTransactions
    private let leader: @Sendable (Int) -> NodeID?
    private let reply: @Sendable (NodeID, [UInt8]) -> Void
    private let log: Log
    /// Where each call's task runs (nil: the default pool).
    private let executor: (any TaskExecutor)?
    /// Other nodes' compare-and-sets taking turns at the locations this node leads.
    let turns: RemoteTurnService

    /// - Parameters:
    ///   - running: the transactions this node's coordinator runs.
    ///   - leader: the leader this node knows for a shard.
    ///   - reply: sends an encoded `ShardReply` to a peer (the transport's `shardReply` frames).
    ///   - executor: where calls run; a simulation passes the executor it runs the whole node on.
    ///   - turns: runs the turn commands of compare-and-sets, on this node's gate.
    init(
        shards: LocalShardClient, running: RunningTransactions, leader: @escaping @Sendable (Int) -> NodeID?,
        reply: @escaping @Sendable (NodeID, [UInt8]) -> Void, turns: RemoteTurnService,
        executor: (any TaskExecutor)? = nil, log: Log
    ) {
        self.executor = executor
        self.turns = turns
        self.shards = shards
        self.running = running
        self.leader = leader
        self.reply = reply
        self.log = log
    }

    /// A `shardCall` frame from `peer`: runs it and answers. A call that cannot be decoded is logged and dropped
    /// (its caller times out).
    func receive(_ payload: [UInt8], from peer: NodeID) {
        let call: ShardCall
        do {
            call = try ShardCall(decoding: payload)
        } catch {
            self.log.warning("shard_call.bad_message", ["from": peer.name, "error": "\(error)"])
            return
        }
        Task(executorPreference: self.executor) {
            let outcome = await self.run(call, from: peer)
            self.reply(peer, ShardReply(id: call.id, outcome: outcome).encoded())
        }
    }

    /// Runs one call from `peer` on the shard's actor (questions to the node, `claims` and `turn`, are answered by
    /// the node).
    func run(_ call: ShardCall, from peer: NodeID) async -> ShardReply.Outcome {
        guard self.shards.actors.indices.contains(call.shard) else {
            return .failed("This node has no shard \(call.shard); the cluster's nodes disagree on the shard count.")
        }
        let shard = call.shard
        do {
            switch call.command {
            case .write(let write, let conditions):
                switch try await self.shards.write(shard: shard, write, conditions: conditions) {
                case .appended(let position, let resolved): return .appended(position, resolved)
                case .conditionFailed(let through): return .conditionFailed(through: through)
                case .needsAllShards: return .needsAllShards
                case .duplicate(let through): return .duplicate(through: through)
                }
            case .lock(let transaction, let namespace, let paths):
                return .locked(
                    try await self.shards.lock(shard: shard, transaction, namespace: namespace, paths: paths))
            case .unlock(let transaction):
                await self.shards.unlock(shard: shard, transaction)
                return .unlocked
            case .prepare(let transaction, let intent, let readLockTerm):
                switch try await self.shards.prepare(shard: shard, transaction, intent, readLockTerm: readLockTerm) {
                case .prepared(let position): return .prepared(position)
                case .needsAllShards: return .needsAllShards
                case .duplicate(let through): return .duplicate(through: through)
                }
            case .decide(let transaction, let commit, let part, let spineValues, let readLockTerm):
                switch try await self.shards.decide(
                    shard: shard, transaction, commit: commit, part: part, spineValues: spineValues,
                    readLockTerm: readLockTerm)
                {
                case .logged(let position, let resolved): return .appended(position, resolved)
                case .needsAllShards: return .needsAllShards
                case .alreadyDecided(let decided, let position): return .alreadyDecided(commit: decided, at: position)
                case .duplicate(let through): return .duplicate(through: through)
                }
            case .finish(let transaction, let commit):
                guard let (position, resolved) = try await self.shards.finish(shard: shard, transaction, commit: commit)
                else { return .nothingToDo }
                return .appended(position, resolved)
            case .forget(let transactions):
                guard let position = try await self.shards.forget(shard: shard, transactions) else {
                    return .nothingToDo
                }
                return .appended(position, [])
            case .confirmRefusal(let term):
                return .confirmed(try await self.shards.confirmRefusal(shard: shard, term: term))
            case .claims(let transactions):
                return .claimed(self.running.claimed(among: transactions))
            case .turn(let command):
                return await self.turns.run(command, from: peer)
            }
        } catch is ShardNotLeaderError {
            return .notLeader(leader: self.leader(shard))
        } catch is ShardReadLockLostError {
            return .readLockLost
        } catch {
            return .failed("\(error)")
        }
    }
}
