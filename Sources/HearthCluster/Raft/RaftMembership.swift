/// The replica set of one Raft group: voters decide elections and commits, learners only receive the log (thesis
/// §4.2.1: a new server catches up as a learner before it is promoted). Both lists are sorted so every node iterates
/// members in the same order, which keeps simulations replayable.
public struct RaftMembership: Sendable, Equatable {
    public private(set) var voters: [NodeID]
    public private(set) var learners: [NodeID]

    public init(voters: some Sequence<NodeID>, learners: some Sequence<NodeID> = []) {
        self.voters = Array(Set(voters)).sorted()
        self.learners = Array(Set(learners).subtracting(self.voters)).sorted()
    }

    /// No members at all: the state of a replica that waits to be told its group by a leader.
    public static var empty: RaftMembership { RaftMembership(voters: []) }

    /// Voters then learners, each sorted.
    public var members: [NodeID] { self.voters + self.learners }

    /// How many voters make a majority.
    public var quorum: Int { self.voters.count / 2 + 1 }

    public func isVoter(_ node: NodeID) -> Bool { self.voters.contains(node) }

    public func isMember(_ node: NodeID) -> Bool { self.voters.contains(node) || self.learners.contains(node) }

    /// The membership after `change`, or why the change cannot be made (one voter added or removed at a time, never
    /// the last voter removed).
    public func applying(_ change: RaftConfigurationChange) throws(RaftError) -> RaftMembership {
        switch change {
        case .addLearner(let node):
            guard !self.isMember(node) else {
                throw .invalidConfigurationChange("\(node) is already a member; remove it first to re-add it")
            }
            return RaftMembership(voters: self.voters, learners: self.learners + [node])
        case .addVoter(let node):
            guard !self.isVoter(node) else { throw .invalidConfigurationChange("\(node) is already a voter") }
            return RaftMembership(voters: self.voters + [node], learners: self.learners.filter { $0 != node })
        case .demoteVoter(let node):
            guard self.isVoter(node) else { throw .invalidConfigurationChange("\(node) is not a voter") }
            guard self.voters != [node] else {
                throw .invalidConfigurationChange(
                    "\(node) is the last voter; promote another member before demoting it")
            }
            return RaftMembership(voters: self.voters.filter { $0 != node }, learners: self.learners + [node])
        case .removeMember(let node):
            guard self.isMember(node) else { throw .invalidConfigurationChange("\(node) is not a member") }
            guard self.voters != [node] else {
                throw .invalidConfigurationChange("\(node) is the last voter; add another voter before removing it")
            }
            return RaftMembership(
                voters: self.voters.filter { $0 != node },
                learners: self.learners.filter { $0 != node }
            )
        }
    }
}

/// One change of a group's replica set (thesis §4.1, one server at a time): at most one may be uncommitted.
/// Promote a learner with `addVoter` once it has caught up.
public enum RaftConfigurationChange: Sendable, Equatable {
    /// Adds a non-voting member that receives the log.
    case addLearner(NodeID)
    /// Adds a voter, or promotes a learner to voter.
    case addVoter(NodeID)
    /// Turns a voter into a learner: it keeps receiving the log but no longer votes or counts for commits (one
    /// voter fewer, so it is a single-server change like the others).
    case demoteVoter(NodeID)
    /// Removes a voter or learner.
    case removeMember(NodeID)
}
