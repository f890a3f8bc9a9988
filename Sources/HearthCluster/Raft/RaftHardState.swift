/// What a node must persist before it sends any message that depends on it (Raft paper Figure 2): its term, whom
/// it voted for in that term, and how far it knows the log is committed.
public struct RaftHardState: Sendable, Equatable {
    public var term: UInt64
    public var votedFor: NodeID?
    public var commit: UInt64

    public init(term: UInt64 = 0, votedFor: NodeID? = nil, commit: UInt64 = 0) {
        self.term = term
        self.votedFor = votedFor
        self.commit = commit
    }
}
