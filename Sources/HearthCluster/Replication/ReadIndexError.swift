/// Why a replica could not learn a read index (`RaftGroupHost.readIndex(timeoutTicks:)`): the caller must not serve
/// the read, since this node may be behind writes acknowledged elsewhere.
package enum ReadIndexError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The replica knew no leader of its group for the whole wait (an election is running, or this node is cut off).
    case noLeader
    /// The leader did not confirm its leadership with a quorum in time (it lost its majority, or the answer was lost).
    case timedOut
    /// The replica stopped (the node is shutting down).
    case stopped

    package var description: String {
        switch self {
        case .noLeader: "the group has no leader this node can reach"
        case .timedOut: "the group's leader did not confirm its leadership with a majority in time"
        case .stopped: "this node is shutting down"
        }
    }
}
