import HearthCluster
import HearthCore
import HearthDatabase
import HearthWire

/// A shard command one node's coordinator sends to the node leading the shard, and the answer it gets back: the
/// `ShardClient` methods as messages (`PeerFrameKind.shardCall` and `.shardReply` frames), matched by `id`.
package struct ShardCall: Sendable {
    /// What the leader's actor is asked to do.
    enum Command: Sendable {
        case write(ShardWrite, conditions: [WriteCondition])
        case lock(TransactionID, namespace: String, paths: [Path])
        case unlock(TransactionID)
        case prepare(TransactionID, ShardIntent, readLockTerm: UInt64?)
        case decide(
            TransactionID, commit: Bool, part: ShardIntent?, spineValues: [Path: Node], readLockTerm: UInt64?)
        case finish(TransactionID, commit: Bool)
        case forget([TransactionID])
        /// Is a refusal decided in `term` true (`ShardActor.confirmRefusal(term:)`)?
        case confirmRefusal(term: UInt64)
        /// Which of these transactions does this node's coordinator still run (`RunningTransactions`)? Asked of
        /// the node, not of a shard: the call names shard 0, which every node has, and the answer ignores it.
        case claims([TransactionID])
        /// A compare-and-set's turn at a location whose shard this node leads; asked of the node (shard 0).
        case turn(TurnCommand)
    }

    /// Chosen by the caller, unique among its calls in flight.
    var id: UInt64
    var shard: Int
    var command: Command
}

extension ShardCall.Command {
    /// Whether the command is for the shard's leader (its answer is worth nothing once another node leads the
    /// shard), not a question to the node (`claims`, `turn`, which name shard 0 whoever leads it).
    var isForLeader: Bool {
        switch self {
        case .claims, .turn: false
        default: true
        }
    }
}

/// The answer to a `ShardCall`.
package struct ShardReply: Sendable {
    /// What became of the command.
    enum Outcome: Sendable {
        /// An entry was appended at the position (a write, a decision or a finish), resolving to the mutations.
        case appended(ShardLogPosition, [ResolvedMutation])
        /// A write's compare-and-set failed against every entry up to `through`.
        case conditionFailed(through: UInt64)
        /// The write or part lands below a spine leaf: the coordinator reruns it over every shard.
        case needsAllShards
        /// A transaction's paths are locked and read.
        case locked(ShardReadLock)
        case unlocked
        /// A transaction's part was prepared at the position.
        case prepared(ShardLogPosition)
        /// The anchor already holds the transaction's decision; nothing was logged (see
        /// `ShardDecideOutcome.alreadyDecided`).
        case alreadyDecided(commit: Bool, at: ShardLogPosition?)
        /// Nothing needed logging: the part was finished already, or the decisions were forgotten already.
        case nothingToDo
        /// A transaction's prepare or decision met no read lock of its own (leadership moved since its read).
        case readLockLost
        /// The node does not lead the shard (nothing was appended); `leader` is who it believes does.
        case notLeader(leader: NodeID?)
        /// Whether the refusal was confirmed.
        case confirmed(Bool)
        /// The write (or part) names an origin the shard applied already, committed through `through`; nothing was
        /// appended.
        case duplicate(through: UInt64)
        /// The command failed on the leader for another reason, described for the client.
        case failed(String)
        /// Those of the transactions asked about that this node's coordinator runs.
        case claimed([TransactionID])
        /// A compare-and-set may write now; `request` names its turn when it ends.
        case turnAdmitted(request: UInt64)
    }

    var id: UInt64
    var outcome: Outcome
}
