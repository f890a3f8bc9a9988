/// Why a Raft call was refused; each message says what the caller can do about it.
public enum RaftError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The configuration cannot work (see the detail).
    case invalidConfiguration(String)
    /// The state handed to `RaftNode.init` is inconsistent (see the detail).
    case invalidPersistentState(String)
    /// Only the leader accepts this; `leaderHint` is the leader this node knows of, if any.
    case notLeader(leaderHint: NodeID?)
    /// The leader is handing leadership to another node and accepts no proposals until it finishes.
    case transferringLeadership(to: NodeID)
    /// An earlier configuration change (at this index) is not committed yet; only one may be pending.
    case configurationChangePending(index: UInt64)
    /// The new leader has not yet committed an entry of its own term.
    case leaderNotReady
    /// The configuration change is not allowed (see the detail).
    case invalidConfigurationChange(String)
    /// The node is not a member of this group.
    case unknownMember(NodeID)
    /// A snapshot or compaction point lies outside what the log allows (see the detail).
    case indexOutOfRange(String)

    public var description: String {
        switch self {
        case .invalidConfiguration(let detail): "invalid Raft configuration: \(detail)"
        case .invalidPersistentState(let detail): "persisted Raft state is inconsistent: \(detail)"
        case .notLeader(let hint?): "this node is not the leader; send the request to \(hint)"
        case .notLeader(nil): "this node is not the leader and knows of none; retry after an election"
        case .transferringLeadership(let target):
            "leadership is moving to \(target); retry on the new leader in an election timeout"
        case .configurationChangePending(let index):
            "the configuration change at index \(index) is not committed yet; retry once it is"
        case .leaderNotReady: "the new leader has not committed an entry in its term yet; retry shortly"
        case .invalidConfigurationChange(let detail): "configuration change refused: \(detail)"
        case .unknownMember(let node): "\(node) is not a member of this group; add it first"
        case .indexOutOfRange(let detail): "index out of range: \(detail)"
        }
    }
}
