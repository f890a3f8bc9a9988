/// A batch of work a node hands its shell (etcd's Ready). The contract, in this order:
/// 1. Install `snapshot` if present (persist it, replacing the stored log, and restore the application from it).
/// 2. Persist `hardState` if present and `entries` (they replace any stored entries from `entries.first.index` on:
///    a follower's conflicting suffix is truncated there). Many groups may share one write and one fsync, but it
///    must be durable before step 3. A leader's appends (`messagesBeforePersisting`) may be sent before this step,
///    so that its followers write while it writes: the leader counts its own log toward a commit only once the
///    shell has persisted it (`advance`), as etcd's leader does.
/// 3. Send the other messages (`messagesAfterPersisting`); serve `readStates` once the application has applied
///    through their index; for each node in `snapshotRequests`, call `RaftNode.sendSnapshot(_:to:)` with the latest
///    application snapshot.
/// 4. Apply `committedEntries` in order, then call `RaftNode.advance(_:)`.
/// The node may take other input between `ready()` and `advance(_:)` (a shell keeps proposing while a Ready is made
/// durable); what that input produced comes in the next Ready, never in this one.
public struct RaftReady: Sendable {
    /// Role, leader and term, when they changed since the last Ready (for observers; never persisted).
    public var softState: RaftSoftState?
    /// Term, vote and commit, when they changed since the last Ready.
    public var hardState: RaftHardState?
    /// A snapshot received from the leader, to install before anything else.
    public var snapshot: RaftSnapshot?
    /// Entries to persist, replacing stored entries from the first one's index on.
    public var entries: [RaftEntry]
    /// Messages to send: appends before or after persisting, the rest after (see the contract above).
    public var messages: [RaftMessage]
    /// Committed entries to apply, in order.
    public var committedEntries: [RaftEntry]
    /// Linearizable reads confirmed by a quorum: serve each once applied through its index.
    public var readStates: [RaftReadState]
    /// Followers that need a snapshot: answer each with `RaftNode.sendSnapshot(_:to:)`.
    public var snapshotRequests: [NodeID]

    /// The messages that may go before the Ready is persisted: a leader's appends.
    public var messagesBeforePersisting: [RaftMessage] {
        self.messages.filter(\.mayPrecedePersisting)
    }

    /// The messages that must wait until the Ready is persisted: answers, votes, heartbeats and everything else
    /// that promises what this node has written.
    public var messagesAfterPersisting: [RaftMessage] {
        self.messages.filter { !$0.mayPrecedePersisting }
    }
}

extension RaftMessage {
    /// Whether the message may be sent before the Ready that holds it is persisted: a leader's append promises
    /// nothing about the leader's own log.
    var mayPrecedePersisting: Bool {
        if case .append = self.kind { return true }
        return false
    }
}

/// A node's volatile state as observers see it: whether it leads, whom it follows, in which term.
public struct RaftSoftState: Sendable, Equatable {
    public var role: RaftRole
    public var leader: NodeID?
    public var term: UInt64
}

/// The role a node plays in its group (a pre-candidate asks for pre-votes before it becomes a candidate).
public enum RaftRole: Sendable, Equatable {
    case follower
    case preCandidate
    case candidate
    case leader
}

/// The answer to `readIndex(context:)`: reads with this context may be served once the application has applied
/// through `index`, and then reflect every write committed before the read was asked.
public struct RaftReadState: Sendable, Equatable {
    public var index: UInt64
    public var context: [UInt8]

    public init(index: UInt64, context: [UInt8]) {
        self.index = index
        self.context = context
    }
}

/// What became of a proposal: appended at `index` in `term` (it commits if that entry is still there when
/// `committedEntries` reaches it), refused because another node leads, or refused for the reason given.
public enum RaftProposal: Sendable, Equatable {
    case accepted(index: UInt64, term: UInt64)
    case notLeader(leaderHint: NodeID?)
    case rejected(RaftError)
}
