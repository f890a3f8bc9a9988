/// A message between the replicas of one group (Raft paper Figure 2 plus pre-vote, heartbeats, snapshots, leadership
/// transfer and read-index forwarding). `term` is the sender's term, except that a pre-vote carries the term the
/// sender would campaign in and a granted pre-vote answer echoes it.
public struct RaftMessage: Sendable, Equatable {
    public var group: RaftGroupID
    public var from: NodeID
    public var to: NodeID
    public var term: UInt64
    public var kind: Kind

    public init(group: RaftGroupID, from: NodeID, to: NodeID, term: UInt64, kind: Kind) {
        self.group = group
        self.from = from
        self.to = to
        self.term = term
        self.kind = kind
    }

    /// What the message says.
    public enum Kind: Sendable, Equatable {
        /// Leader → follower: entries following (`prevIndex`, `prevTerm`), and the leader's commit index.
        case append(prevIndex: UInt64, prevTerm: UInt64, entries: [RaftEntry], commit: UInt64)
        /// Follower → leader: its log matches the leader's through `matchIndex` (also the answer to a snapshot).
        case appendAccepted(matchIndex: UInt64)
        /// Follower → leader: it lacks (`rejectedIndex`, its term); its log may match at (`hintIndex`, `hintTerm`).
        case appendRejected(rejectedIndex: UInt64, hintIndex: UInt64, hintTerm: UInt64)
        /// Candidate → voter. `transfer` marks an election the old leader asked for, which leases do not block.
        case vote(lastIndex: UInt64, lastTerm: UInt64, transfer: Bool)
        case voteResponse(granted: Bool)
        /// Pre-candidate → voter: would you vote for me in `term`?
        case preVote(lastIndex: UInt64, lastTerm: UInt64)
        case preVoteResponse(granted: Bool)
        /// Leader → follower: still here; commit through `commit`. `context` is a pending read-index request.
        case heartbeat(commit: UInt64, context: [UInt8])
        case heartbeatResponse(context: [UInt8])
        /// Leader → follower whose needed entries are compacted away.
        case installSnapshot(RaftSnapshot)
        /// Leader → transfer target: campaign now.
        case timeoutNow
        /// Follower → leader: a read-index request from the follower's application.
        case readIndex(context: [UInt8])
        /// Leader → follower: the answer to its read-index request.
        case readIndexResponse(index: UInt64, context: [UInt8])
    }
}
