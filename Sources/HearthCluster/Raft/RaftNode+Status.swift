extension RaftNode {
    /// On a leader, how far each other member's log is known to match (for `cluster status` lag figures and for
    /// deciding when a learner has caught up enough to promote); empty on other nodes.
    public var followers: [RaftFollowerStatus] {
        guard self.role == .leader else { return [] }
        return self.peers.compactMap { peer in
            guard let progress = self.progress[peer] else { return nil }
            let state: RaftFollowerStatus.State
            switch progress.state {
            case .probe: state = .probe
            case .replicate: state = .replicate
            case .snapshot: state = .snapshot
            }
            return RaftFollowerStatus(
                node: peer,
                isVoter: self.membership.isVoter(peer),
                match: progress.match,
                lag: self.log.lastIndex - min(progress.match, self.log.lastIndex),
                state: state,
                answeredRecently: progress.silentTicks <= 2 * self.configuration.heartbeatTicks
            )
        }
    }
}

/// One follower as its leader sees it: how much of the log it holds and how the leader is sending to it.
public struct RaftFollowerStatus: Sendable, Equatable {
    /// How the leader sends: one probe at a time, a pipeline, or a snapshot.
    public enum State: Sendable, Equatable {
        case probe
        case replicate
        case snapshot
    }

    public var node: NodeID
    public var isVoter: Bool
    /// The highest index known to be in its log.
    public var match: UInt64
    /// Entries the leader has that it is not known to hold.
    public var lag: UInt64
    public var state: State
    /// Whether it answered within the last two heartbeat intervals: a follower cut off from its leader (whose links
    /// stay up, so nothing else says so yet) stops answering at once, while its lag and state still look healthy.
    public var answeredRecently: Bool

    public init(node: NodeID, isVoter: Bool, match: UInt64, lag: UInt64, state: State, answeredRecently: Bool = true) {
        self.node = node
        self.isVoter = isVoter
        self.match = match
        self.lag = lag
        self.state = state
        self.answeredRecently = answeredRecently
    }
}
