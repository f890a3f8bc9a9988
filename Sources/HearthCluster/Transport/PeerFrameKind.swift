/// What a peer frame carries, by its kind byte (0 is the transport's own hello). One list, so two subsystems can
/// never claim the same byte.
package enum PeerFrameKind: UInt8, Sendable, CaseIterable {
    /// A SWIM membership message (`SWIMMessage`).
    case membership = 1
    /// A Raft message (`RaftMessage`, which names its group).
    case raft = 2
    /// A shard command for the shard's leader on this node, sent by another node's coordinator (`ShardCall`).
    case shardCall = 3
    /// The answer to a `shardCall`, matched to it by its id.
    case shardReply = 4
    /// A piece of a large Raft snapshot's transfer (`SnapshotTransferFrame`).
    case raftSnapshot = 5
    /// A node asking to join (`JoinRequest`), sent as the first frame of a connection instead of a hello, and the
    /// member's answer (`JoinReply`), after which the member closes the connection.
    case join = 6
}
