import HearthCluster
import HearthDatabase
import HearthSystem

/// Changing the member list: a change is proposed to the member-list group on its leader and answered once this
/// node's replica has applied it, with the outcome every replica reached.
extension ReplicatedDatabase {
    /// The shards' groups, `0 ..< shards` (the node also hosts `RaftGroupID.members`).
    var shardGroups: [RaftGroupID] {
        (0..<self.log.router.shardCount).map { RaftGroupID(UInt32($0)) }
    }

    /// The member list's group leader as this node knows it.
    var memberListLeader: NodeID? { self.service.host(.members)?.softState.leader }

    /// Proposes `change` and waits until it is applied here.
    /// - Returns: the outcome every replica reached (`.refused` with the reason when the list's rules forbid it).
    /// - Throws: `MemberChangeError`: this node does not lead the member list (`notLeader`, naming the leader it
    ///   knows), or the change was not confirmed in `timeout` or lost to a leader change (`unconfirmed`).
    func proposeMemberChange(_ change: MemberChange, timeout: Duration = .seconds(10)) async throws(MemberChangeError)
        -> MemberChangeOutcome
    {
        guard let host = self.service.host(.members) else {
            throw .unconfirmed("This node does not host the member list.")
        }
        guard host.softState.role == .leader else { throw .notLeader(host.softState.leader) }
        if let refusal = self.directory.list.refusal(of: change) { return .refused(refusal) }
        switch host.propose(change.encoded()) {
        case .notLeader(let hint):
            throw .notLeader(hint)
        case .rejected(let error):
            throw .unconfirmed("The member list's leader refused the proposal: \(error).")
        case .accepted(let index, let term):
            let clock = self.log.clock
            let deadline = clock.now + timeout
            while clock.now < deadline {
                switch self.directory.applied(index: index, term: term) {
                case .pending:
                    do {
                        try await clock.sleep(for: .milliseconds(10))
                    } catch {
                        throw .unconfirmed("The node is stopping; the change may or may not be made.")
                    }
                case .applied(let outcome):
                    return outcome
                case .replaced:
                    throw .unconfirmed("Leadership of the member list moved before the change committed; retry it.")
                case .unknown:
                    return self.directory.list.refusal(of: change) == nil ? .unchanged : .changed
                }
            }
            throw .unconfirmed(
                "The change was not confirmed within \(timeout.components.seconds) s (the member list's group may "
                    + "have lost its majority); look at hearth cluster status, then retry.")
        }
    }

    /// Why this node does not serve because of its own membership: it is leaving or was removed. Nil otherwise.
    var membershipNotReadyReason: String? {
        let list = self.directory.list
        if list.removed[self.node] != nil {
            return "This node (\(self.node)) was removed from the cluster; it serves nothing. Stop it; to bring it "
                + "back, empty its data directory and start it with --join."
        }
        if list.member(self.node)?.status == .leaving {
            return "This node (\(self.node)) is leaving the cluster: its replicas are moving to the other members."
        }
        return nil
    }
}

/// A member-list change could not be made here; the message says what to do.
enum MemberChangeError: Error, Sendable, CustomStringConvertible {
    /// Only the member list's leader takes changes; this is the one this node knows, if any.
    case notLeader(NodeID?)
    /// The change may or may not have been made (see the message).
    case unconfirmed(String)

    var description: String {
        switch self {
        case .notLeader(let leader?): "Send the change to \(leader), which leads the member list."
        case .notLeader(nil): "The member list has no leader right now (an election is running); retry shortly."
        case .unconfirmed(let message): message
        }
    }
}
