/// The tunables of one Raft group, in ticks (the shell decides how long a tick is) and batch sizes. Validated at
/// init so a node never runs with settings that cannot elect a leader.
public struct RaftConfiguration: Sendable, Equatable {
    /// A follower that hears nothing from a leader for between this many and twice this many ticks starts an
    /// election; a leader checks its quorum this often.
    public let electionTicks: Int
    /// A leader sends heartbeats this often.
    public let heartbeatTicks: Int
    /// One append message carries at most this many bytes of entries (always at least one entry).
    public let maxAppendBytes: Int
    /// One append message carries at most this many entries.
    public let maxAppendEntries: Int
    /// A follower in the replicate state has at most this many appends in flight (pipelining window).
    public let maxInflightAppends: Int
    /// Pre-vote (thesis §9.6): a candidate first asks whether it could win before it raises its term.
    public let preVote: Bool
    /// Check-quorum (thesis §6.2): a leader that has not heard from a quorum within an election timeout steps down,
    /// and a follower that hears from a leader ignores vote requests (the leader lease that stops removed or
    /// partitioned servers from disrupting a stable leader).
    public let checkQuorum: Bool

    public init(
        electionTicks: Int = 10,
        heartbeatTicks: Int = 1,
        maxAppendBytes: Int = 1 << 20,
        maxAppendEntries: Int = 256,
        maxInflightAppends: Int = 64,
        preVote: Bool = true,
        checkQuorum: Bool = true
    ) throws(RaftError) {
        guard heartbeatTicks >= 1 else {
            throw .invalidConfiguration("heartbeatTicks is \(heartbeatTicks); it must be at least 1")
        }
        guard electionTicks > heartbeatTicks else {
            throw .invalidConfiguration(
                "electionTicks (\(electionTicks)) must be greater than heartbeatTicks (\(heartbeatTicks)), "
                    + "usually ten times greater, or followers time out between heartbeats"
            )
        }
        guard maxAppendBytes >= 1, maxAppendEntries >= 1, maxInflightAppends >= 1 else {
            throw .invalidConfiguration(
                "maxAppendBytes, maxAppendEntries and maxInflightAppends must each be at least 1"
            )
        }
        self.electionTicks = electionTicks
        self.heartbeatTicks = heartbeatTicks
        self.maxAppendBytes = maxAppendBytes
        self.maxAppendEntries = maxAppendEntries
        self.maxInflightAppends = maxInflightAppends
        self.preVote = preVote
        self.checkQuorum = checkQuorum
    }
}
